// A drain that resets nothing: clients on kept-alive connections send reads and triggers through the
// whole drain, as a balancer does during a rolling restart. Every request sent on a connection the
// mock took is answered (during the drain with Connection: close, so each client opens its next
// connection), the ones opened as the drain ends included; once the listener is closed a connection
// is refused, never reset. Run in process, the drain's period ended by an event (a number of answers
// during it), several times.
import http from "node:http";
import { afterAll, expect, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";

const CLIENTS = 8;
/** Answers the drain period waits for before it ends: enough for every client to have reconnected many times. */
const DRAIN_ANSWERS = 300;
const RUNS = 3;

const started: RunningMock[] = [];
afterAll(async () => {
  await Promise.all(started.map((m) => m.close()));
});

interface Outcome {
  /** The status, or the error code of a request that got no answer. */
  result: string;
  /** Sent after the drain began. */
  duringDrain: boolean;
  connection?: string;
}

/** One request on `agent`: a read, or (every fifth) a trigger, which no balancer sends twice. */
function send(mock: RunningMock, agent: http.Agent, trigger: boolean, duringDrain: boolean): Promise<Outcome> {
  const path = trigger ? "/_mock/webhooks/events" : "/v1/department/list?PageSize=1";
  const key = trigger ? DEMO_KEY.org1WebhooksAdmin : DEMO_KEY.org1Full;
  return new Promise((resolve) => {
    const request = http.request(`${mock.url}${path}`, { agent, method: trigger ? "POST" : "GET", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } }, (response) => {
      response.resume().on("end", () => resolve({ result: String(response.statusCode), duringDrain, connection: response.headers.connection }));
    });
    request.on("error", (error: NodeJS.ErrnoException) => resolve({ result: error.code ?? error.message, duringDrain }));
    request.end(trigger ? JSON.stringify({ type: "payroll.paid" }) : undefined);
  });
}

test.each(Array.from({ length: RUNS }, (_, i) => [i + 1]))("run %i: kept-alive clients sending reads and triggers through the drain: every request answered, then refused, none reset", { timeout: 120_000 }, async () => {
  const mock = await startMock({ port: 0, seed: 3, scale: 0.2, today: "2026-11-23", rateLimit: "off", authThrottle: "off" });
  started.push(mock);
  const outcomes: Outcome[] = [];
  let draining = false;
  let answeredInDrain = 0;
  let endPeriod!: () => void;
  const periodOver = new Promise<void>((resolve) => (endPeriod = resolve));
  let warm!: () => void;
  const warmedUp = new Promise<void>((resolve) => (warm = resolve));

  const client = async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let n = 0; ; n++) {
      const outcome = await send(mock, agent, n % 5 === 0, draining);
      outcomes.push(outcome);
      if (outcomes.length === CLIENTS * 5) warm();
      if (outcome.duringDrain && /^\d+$/.test(outcome.result) && ++answeredInDrain === DRAIN_ANSWERS) endPeriod();
      if (outcome.result === "ECONNREFUSED") break;
    }
    agent.destroy();
  };
  const clients = Array.from({ length: CLIENTS }, client);
  await warmedUp;
  draining = true;
  await mock.drain({ periodMs: 1, sleep: () => periodOver });
  await Promise.all(clients);

  const tally = (list: Outcome[]) => list.reduce<Record<string, number>>((counts, o) => ((counts[o.result] = (counts[o.result] ?? 0) + 1), counts), {});
  const lost = outcomes.filter((o) => !["200", "202", "ECONNREFUSED"].includes(o.result));
  expect(lost.length, `requests neither answered nor refused (of ${outcomes.length}: ${JSON.stringify(tally(outcomes))})`).toBe(0);
  expect(tally(outcomes).ECONNREFUSED, "each client, refused once the listener closed").toBe(CLIENTS);
  const kept = outcomes.filter((o) => o.duringDrain && /^\d+$/.test(o.result) && o.connection !== "close");
  expect(kept.length, "answers during the drain without Connection: close").toBe(0);
  expect(answeredInDrain, "answers during the drain").toBeGreaterThanOrEqual(DRAIN_ANSWERS);
});
