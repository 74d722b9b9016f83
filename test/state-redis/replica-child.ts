// The replica the SIGKILL test kills: a mock on the shared state that adds an endpoint, fires one
// event, and says "waiting <event id>" once the event's first attempt has failed and its retry is
// scheduled (in the shared queue, owned by no replica). From that line on it is frozen (its event
// loop blocked, so it cannot take the retry however late the kill comes) until it is killed.
import { startMock } from "../../mock/index.js";

const [state, url, timeScale] = process.argv.slice(2);
const mock = await startMock({ port: 0, seed: 7, today: "2026-11-23", scale: 0.2, state, webhooks: { timeScale: Number(timeScale) }, onError: () => {} });
await mock.webhooks.addEndpoint({ url });
mock.webhooks.onAttempt((entry) => {
  if (entry.state !== "retry-scheduled") return;
  // A write to a pipe is synchronous on Linux: the line is out before the freeze.
  process.stdout.write(`waiting ${entry.eventId}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
});
await mock.trigger("payroll.paid");
