// The Redis password of `hr-mock serve --state redis://…`, kept out of every process's arguments
// (`ps` and /proc/PID/cmdline show them to every user of the host; Kubernetes shows them in the pod
// spec): from the variable HR_MOCK_REDIS_PASSWORD, or from a file (--redis-password-file, a mounted
// Secret; its trailing newline is not part of it). A password written in the URL on the command
// line still works, with one warning line saying how to avoid it, as redis-cli warns about -a. The
// password is never printed: lines name where it came from.
import { readFileSync } from "node:fs";
import { unreadable, usage, UsageError } from "./command.js";
import { REDIS_PASSWORD_VARIABLE, STATE_FLAG, statePassword, strayPasswordProblem } from "../state/address.js";

/** The one setting that has a variable and no flag: a password on the command line is what it avoids. */
export { REDIS_PASSWORD_VARIABLE };

/** What --help says of the password's variable and file. */
export const REDIS_PASSWORD_HELP = `  ${REDIS_PASSWORD_VARIABLE}  The password of --state redis://… (or --redis-password-file):
                          the command line shows it to every user of the host.`;

/** Where the password comes from, as parsing finds it (no file is read there). */
export type PasswordSource = { from: "variable"; password: string } | { from: "file"; path: string; named: string } | undefined;

export interface PasswordInput {
  /** The --state value, and where it came from ("--state" or "HR_MOCK_STATE"). */
  state: string | undefined;
  stateNamed: string;
  /** --redis-password-file's value, and where it came from. */
  file: string | undefined;
  fileNamed: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** The password's source, checked: given once, only for a Redis address; plus the warning for one on the command line. */
export function passwordSource({ state, stateNamed, file, fileNamed, env }: PasswordInput): { source: PasswordSource; warning?: string } {
  const variable = env[REDIS_PASSWORD_VARIABLE];
  const inVariable = variable !== undefined && variable !== "";
  const inUrl = statePassword(state).inAddress;
  const given = [inUrl && `the URL of ${stateNamed}`, inVariable && REDIS_PASSWORD_VARIABLE, file !== undefined && fileNamed].filter((g): g is string => typeof g === "string");
  if (given.length > 1) throw usage("serve", `the Redis password is given ${given.length === 2 ? "twice" : "three times"} (${given.join(", ")}); give it once`);
  const stray = (inVariable || file !== undefined) && strayPasswordProblem(state, inVariable ? REDIS_PASSWORD_VARIABLE : fileNamed);
  if (stray) throw usage("serve", stray);
  const warning =
    inUrl && stateNamed === STATE_FLAG
      ? `hr-mock serve: warning: a password on the command line can be read by every user of this host (ps, /proc/PID/cmdline); give it in ${REDIS_PASSWORD_VARIABLE} or a file (--redis-password-file) instead`
      : undefined;
  const source: PasswordSource = inVariable ? { from: "variable", password: variable } : file !== undefined ? { from: "file", path: file, named: fileNamed } : undefined;
  return { source, warning };
}

/**
 * The password of the source (a file is read now) and where it came from, as the state's lines name
 * it: undefined when there is none; a UsageError of one line when the file cannot be read.
 */
export function readPassword(source: PasswordSource, read: (path: string) => string = (path) => readFileSync(path, "utf8")): { password: string; from: string } | undefined {
  if (source === undefined) return undefined;
  if (source.from === "variable") return { password: source.password, from: REDIS_PASSWORD_VARIABLE };
  let text: string;
  try {
    text = read(source.path);
  } catch (error) {
    throw new UsageError(`cannot read ${source.named} ${source.path}: ${unreadable(error)}`);
  }
  // A Secret written by an editor or `echo` ends with a newline that is not part of the password.
  const password = text.replace(/\r?\n$/, "");
  if (password === "") throw new UsageError(`${source.named} ${source.path} is empty`);
  return { password, from: `the file ${source.path} (${source.named})` };
}
