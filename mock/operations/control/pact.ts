// POST /_mock/pact/provider-states, Pact's state change endpoint: before each interaction a verifier
// posts its provider state; the mock resets its one sandbox for pacts (made on first use) and answers
// the values the request takes from its state: the sandbox key of the label the state names, and one
// record id of each kind in that key's organisation. No key: a verifier sends none, and the sandbox
// holds only a copy of the demo dataset.
import { operationResult, refuse, type OperationResult } from "../../kernel/results.js";
import { andThen, type Awaitable } from "../../kernel/awaitable.js";
import type { World, Worlds } from "../../worlds/world.js";
import type { OperationTable } from "../operation.js";
import { offeredIds } from "../../pact/ids.js";
import { organizationAt } from "../../data/lazy-organizations.js";
import type { components } from "../../../generated/control-api.js";

/** The label of the sandbox the state endpoint keeps. */
export const PACT_SANDBOX_LABEL = "pact provider states";

/** The state change a verifier posts, as the control document describes it. */
type StateChange = components["schemas"]["ProviderStateChange"];

export function pactOperations(worlds: Worlds): OperationTable {
  // One state change at a time: calls made while one waits for the state share its answer (the
  // sandbox at its start), so that concurrent first calls make one sandbox, not one each.
  let changing: Promise<OperationResult | World> | undefined;
  const sandbox = (): Awaitable<OperationResult | World> => {
    if (changing) return changing;
    const changed = andThen(worlds.list(), (listed) => {
      const kept = listed.find((w) => w.label === PACT_SANDBOX_LABEL);
      const made = kept ? worlds.reset(kept.id) : worlds.createSandbox(PACT_SANDBOX_LABEL);
      return andThen(made, (done) => (done.ok ? done.value : operationResult(done)));
    });
    if (!(changed instanceof Promise)) return changed;
    changing = changed.finally(() => (changing = undefined));
    return changing;
  };
  return {
    setPactProviderState: ({ body }) => {
      const change = (body ?? {}) as StateChange;
      if (change.action === "teardown") return bare({});
      return andThen(sandbox(), (world) => {
        if (!("keys" in world)) return world;
        const label = change.params?.key;
        if (label === undefined) return bare({});
        const key = world.keys.find((k) => k.label === label);
        if (!key) {
          return operationResult(refuse("invalid", `no key of the sandbox is labelled ${JSON.stringify(label.slice(0, 100))}; the labels are ${world.keys.map((k) => JSON.stringify(k.label)).join(", ")}`, "params.key"));
        }
        const org = organizationAt(world.dataset, key.organisation)!;
        return bare({ apiKey: key.key, ...offeredIds(org) });
      });
    },
  };
}

/** Values answered as they are, not in the envelope: a verifier reads them from the body's top level. */
const bare = (data: Record<string, unknown>): OperationResult => ({ ok: true, data, bare: true });
