// The state behind the mock, as the application opens it: one backend (backend.ts) chosen from
// --state (open.ts), and what startMock's answer and errors name of it.
export { StateError } from "./state-error.js";
export type { PartialChange } from "./snapshot.js";
export type { SkippedChange } from "./world-files.js";
export type { Readiness, StateBackend, StateReport, StoreName } from "./backend.js";
export { openBackend } from "./open.js";
export { announcement, endpointsKeptIn } from "./report.js";
