// The heap in use after full collections, for the in-process rows (sandboxes, the journal). A full
// collection before each reading: the documented way to reach gc without a CLI flag.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** The heap in use, MB, after two full collections. */
export function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
}
