// The replica the SIGKILL test kills: a mock on the shared state that adds an endpoint, fires one
// event, and says "waiting <event id>" once the event's first attempt has failed and its retry is
// scheduled (in the shared queue, owned by no replica). Then it is killed before the retry is due.
import { startMock } from "../../mock/index.js";

const [state, url, timeScale] = process.argv.slice(2);
const mock = await startMock({ port: 0, seed: 7, today: "2026-11-23", scale: 0.2, state, webhooks: { timeScale: Number(timeScale) }, onError: () => {} });
await mock.webhooks.addEndpoint({ url });
mock.webhooks.onAttempt((entry) => {
  if (entry.state === "retry-scheduled") process.stdout.write(`waiting ${entry.eventId}\n`);
});
await mock.trigger("payroll.paid");
