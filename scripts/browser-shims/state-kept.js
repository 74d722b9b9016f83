// mock/state/kept.ts, which opens a --state directory or Redis: a page's handlers keep their state in memory.
export async function openKept() {
  throw new Error("hr-mock: a page keeps the mock's state in memory");
}
