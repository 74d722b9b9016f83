// Where the hr-contract commands print (the process's streams for the bin, a test's own writers in
// process) and the clock they wait with (the real one for the bin); and the one-line error every
// failure of a command is.
import type { Clock } from "./network.js";

export interface CliIO {
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
  /** The clock a run paces and backs off with; the real one unless a test injects its own. */
  clock?: Clock;
}

export interface Printer {
  out(text: string): void;
  /** One `<command>: ` line on stderr ("hr-contract: …", "hr-contract receiver: …"). */
  note(line: string): void;
  /** One line on stderr, then the exit status given. */
  fail(line: string, code: number): number;
}

export function printer(io: CliIO = {}, command = "hr-contract"): Printer {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const note = (line: string) => void stderr.write(`${command}: ${line}\n`);
  return {
    out: (text) => void stdout.write(text),
    note,
    fail: (line, code) => (note(line), code),
  };
}
