// What the Lua scripts and the TypeScript that reads their answers must agree on, in one place:
// both are made from these (the scripts interpolate them into their text). A replica of another
// release whose formats differ refuses the state by its format version (index.ts), in one line.

/** The state's format: written with the fingerprint; a replica reading another refuses the state. Raise it when anything below changes. */
export const STATE_FORMAT = "hr-mock-state/1";

/** What admission answers, per request (a stale or gone world: once, for the whole batch). */
export const ADMITTED = { stale: 0, gone: 1, rateLimited: 2, forbidden: 3, fault: 4, admitted: 5 } as const;
