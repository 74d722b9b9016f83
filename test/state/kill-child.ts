// The child the kill test runs: a mock on a state directory that writes to it as fast as it can
// (each trigger appends a data change and replaces the webhook snapshot; every failed attempt
// replaces it again) until it is killed. It prints what it restored, so the parent can compare.
import { startMock } from "../../mock/index.js";

const [state] = process.argv.slice(2);
const mock = await startMock({ port: 0, seed: 5, scale: 0.1, today: "2026-11-23", state, onError: () => {} });
// Port 9 (discard) refuses: every delivery fails and waits for its retry, so the snapshot grows.
if ((await mock.webhooks.listEndpoints()).length === 0) await mock.webhooks.addEndpoint({ url: "http://127.0.0.1:9/hooks" });
const restored = JSON.stringify(mock.state?.restored);
const types = ["leave.requested", "leave.approved", "payroll.paid", "employee.created", "leave.rejected"];
let i = 0;
// The first trigger compiles the schemas; "ready" once writes run at full pace.
await mock.trigger(types[i++]);
process.stdout.write(`ready ${restored}\n`);
const loop = (): void => {
  mock
    .trigger(types[i++ % types.length])
    .catch(() => undefined)
    .finally(() => setImmediate(loop));
};
loop();
