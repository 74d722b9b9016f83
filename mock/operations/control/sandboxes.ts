// The control API's sandbox and fault operations (mock/control/openapi/, the Sandboxes and
// Faults tags). Bodies arrive checked against the document; what it cannot say (a sandbox the key
// may see, an operation of the read API, a status that operation declares, the limits) is checked
// here and answered as a refusal in domain terms.
import type { ApiKey } from "../../worlds/world.js";
import { faultProblem, type FaultInput } from "../../worlds/faults.js";
import { operationResult, refuse, type OperationResult } from "../../kernel/results.js";
import type { OperationTable } from "../operation.js";
import { andThen, type Awaitable } from "../../kernel/awaitable.js";
import type { SpecOperation } from "../../kernel/spec.js";
import { DEFAULT_WORLD, noSandbox, type SandboxResult, type World, type Worlds } from "../../worlds/world.js";
import type { components } from "../../../generated/control-api.js";

/** A sandbox as the control API shows it. */
export type SandboxView = components["schemas"]["Sandbox"];

export function viewOfSandbox(world: World): SandboxView {
  return {
    id: world.id,
    label: world.label,
    createdAt: world.createdAt,
    keys: world.keys.map((k: ApiKey) => ({ key: k.key, demoKey: world.demoKeyOf.get(k.key) ?? k.label, label: k.label, organizationId: k.organizationId, permissions: [...k.permissions] })),
  };
}

export function sandboxOperations(worlds: Worlds, operations: ReadonlyMap<string, SpecOperation>): OperationTable {
  const answer = (result: Awaitable<SandboxResult>): Awaitable<OperationResult> => andThen(result, (done) => operationResult(done, viewOfSandbox));
  const missing = (id: string): OperationResult => operationResult(noSandbox(id));

  return {
    createSandbox: ({ body }) => {
      const { label, data } = (body ?? {}) as { label?: string; data?: unknown };
      return answer(worlds.createSandbox(label, data));
    },
    listSandboxes: ({ world }) => andThen(world.id === DEFAULT_WORLD ? worlds.list() : [world], (listed) => ({ ok: true, data: listed.map(viewOfSandbox) })),
    resetSandbox: ({ world, path }) => andThen(worlds.visible(world, String(path.id)), (sandbox) => (sandbox ? answer(worlds.reset(sandbox.id)) : missing(String(path.id)))),
    deleteSandbox: ({ world, path }) => andThen(worlds.visible(world, String(path.id)), (sandbox) => (sandbox ? answer(worlds.delete(sandbox.id)) : missing(String(path.id)))),
    addFault: ({ world, body }) => {
      const input = body as FaultInput;
      const problem = faultProblem(input, operations);
      if (problem) return operationResult(refuse("invalid", problem.message, problem.field));
      return andThen(world.store.faults.add(input), (added) =>
        added.ok ? { ok: true, data: added.fault } : operationResult(refuse("conflict", `this world holds ${added.held} faults, its limit (maxFaultsPerWorld); clear them with DELETE /_mock/faults first`)),
      );
    },
    listFaults: ({ world }) => andThen(world.store.faults.list(), (data) => ({ ok: true, data })),
    clearFaults: ({ world }) => andThen(world.store.faults.clear(), (data) => ({ ok: true, data })),
  };
}

