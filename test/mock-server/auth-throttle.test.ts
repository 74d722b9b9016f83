// Guessing API keys is slowed per address: past AUTH_THROTTLE.budget failed authentications in a
// window, an address's 401 answers are held back; a valid key, another address, or a new window
// is not held. Driven through the dispatcher with an injected clock.
import { beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY, DEMO_KEYS } from "../../mock/keys/demo-keys.js";
import { readOperations, handlers } from "../../mock/operations/read/index.js";
import { AUTH_THROTTLE } from "../../mock/worlds/auth-throttle.js";
import { createDispatcher, type Dispatcher } from "../../mock/pipeline/dispatch.js";
import { ResponseCache } from "../../mock/pipeline/response-cache.js";
import { loadSpec } from "../../mock/kernel/spec.js";
import { Worlds } from "../../mock/worlds/world.js";
import { memoryBackend } from "../../mock/state/memory.js";
import { freshDataset } from "../mock-data/fixture.js";

let clock = 0;
let dispatch: Dispatcher;
beforeAll(async () => {
  const dataset = freshDataset();
  dispatch = createDispatcher({
    spec: await loadSpec(),
    worlds: new Worlds({ start: dataset, keys: DEMO_KEYS, sandboxKeys: DEMO_KEYS, state: memoryBackend({ rateLimit: "off" }) }),
    table: readOperations(handlers),
    failRate: 0,
    random: Math.random,
    cache: new ResponseCache(0),
    now: () => clock,
    onInternalError: (line) => {
      throw new Error(`no internal error expected, got ${line}`);
    },
  });
});

const ask = async (key: string, client: string) => {
  const reply = await dispatch({ method: "GET", url: "/v1/leavetype/list", headers: { authorization: `Bearer ${key}` }, client });
  return { status: reply.status, holdMs: reply.holdMs ?? 0 };
};

describe("failed authentication per address", () => {
  test("within the budget, 401s are answered at once; past it, each is held", async () => {
    clock = 0;
    const seen = [];
    for (let i = 0; i < AUTH_THROTTLE.budget + 3; i++) seen.push(await ask(`guess_${i}`, "10.0.0.1"));
    expect(seen.slice(0, AUTH_THROTTLE.budget), "within the budget").toEqual(Array(AUTH_THROTTLE.budget).fill({ status: 401, holdMs: 0 }));
    expect(seen.slice(AUTH_THROTTLE.budget), "past the budget").toEqual(Array(3).fill({ status: 401, holdMs: AUTH_THROTTLE.holdMs }));
  });

  const cases: Array<[string, { given: { key: string; client: string; at: number }; want: { status: number; holdMs: number } }]> = [
    ["a valid key from the throttled address", { given: { key: DEMO_KEY.org1Full, client: "10.0.0.1", at: 1 }, want: { status: 200, holdMs: 0 } }],
    ["a wrong key from another address", { given: { key: "guess_x", client: "10.0.0.2", at: 1 }, want: { status: 401, holdMs: 0 } }],
    ["a wrong key from the throttled address once its window is over", { given: { key: "guess_y", client: "10.0.0.1", at: AUTH_THROTTLE.windowMs + 1 }, want: { status: 401, holdMs: 0 } }],
  ];
  test.each(cases)("%s is not held", async (_name, { given, want }) => {
    clock = given.at;
    expect(await ask(given.key, given.client)).toEqual(want);
  });
});
