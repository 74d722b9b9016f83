// mock/state/kept.ts (a --state directory or Redis), never called in a page: its handlers keep their state in memory.
export const openKept = undefined;
