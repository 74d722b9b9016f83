// The dispatcher in process, as the suites that drive it with plain objects build it: the read API's
// handlers over a fresh dataset, the demo keys, no rate limit, no response cache (every request goes
// through Prism, as a first request does), a still clock, and an internal error failing the test.
import { DEMO_KEYS } from "../../mock/keys/demo-keys.js";
import { handlers, readOperations } from "../../mock/operations/read/index.js";
import { createDispatcher, type Dispatcher, type DispatcherOptions } from "../../mock/pipeline/dispatch.js";
import { ResponseCache } from "../../mock/pipeline/response-cache.js";
import { loadSpec } from "../../mock/kernel/spec.js";
import { Worlds } from "../../mock/worlds/world.js";
import { memoryBackend } from "../../mock/state/memory.js";
import { freshDataset } from "../mock-data/fixture.js";

/** `options` replace the defaults above, one by one. */
export async function testDispatcher(options: Partial<DispatcherOptions> = {}): Promise<Dispatcher> {
  return createDispatcher({
    spec: await loadSpec(),
    worlds: new Worlds({ start: freshDataset(), keys: DEMO_KEYS, sandboxKeys: DEMO_KEYS, state: memoryBackend({ rateLimit: "off" }) }),
    table: readOperations(handlers),
    failRate: 0,
    random: Math.random,
    cache: new ResponseCache(0),
    now: () => 0,
    onInternalError: (line) => {
      throw new Error(`no internal error expected, got ${line}`);
    },
    ...options,
  });
}
