// `hr-mock diff`: the contract diff (mock/diff/cli.ts, also `npm run diff` in a clone), run with the
// command line's output; it prints its own lines and answers its exit status.
import { main as diff } from "../../diff/cli.js";
import type { CommandIO } from "../command.js";

export function diffCommand(argv: string[], io: CommandIO): Promise<number> {
  return diff(argv, { cwd: process.cwd(), env: process.env, stdout: (text) => void io.stdout.write(text), stderr: (text) => void io.stderr.write(text) });
}
