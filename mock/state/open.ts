// The one place the backend is chosen, from --state: none keeps the state in memory (the MSW
// handlers' too), anything else is kept where it says (kept.ts).
import type { BackendOptions, StateBackend } from "./backend.js";
import { openKept } from "./kept.js";
import { memoryBackend } from "./memory.js";

export async function openBackend(options: BackendOptions): Promise<StateBackend> {
  return options.state || options.password ? openKept(options) : memoryBackend(options);
}
