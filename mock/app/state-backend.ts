// The state backend behind a running mock (mock/state/backend.ts), held beside the mock, not in its
// public API: for what asks the state itself (test/state/backends.test.ts runs one table of cases on
// each backend through it); startMock's readiness and drain use the backend it opened directly.
import type { StateBackend } from "../state/index.js";

const backends = new WeakMap<object, StateBackend>();

export function holdBackend(mock: object, backend: StateBackend): void {
  backends.set(mock, backend);
}

/** The backend startMock opened for this mock; throws for an object startMock did not answer. */
export function stateBackendOf(mock: object): StateBackend {
  const backend = backends.get(mock);
  if (!backend) throw new Error("hr-mock: this is not a mock startMock started");
  return backend;
}
