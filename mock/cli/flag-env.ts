// A command's flags given as environment variables, as a container or a Kubernetes pod gives its
// settings: each flag of the command's one table has a variable named from it (envName), so a flag
// added to the table has its variable at once; how they are read is what serve's --help says under
// "Environment". A mistake in a variable's value is one line naming the variable (`named(flag)`).
import { readFlags, usage, type CommandLine, type Flags } from "./command.js";
import { quoted } from "../kernel/parse-error.js";

export const ENV_PREFIX = "HR_MOCK_";

/** The variable of a flag: `cors-origin` → `HR_MOCK_CORS_ORIGIN`. */
export function envName(flag: string): string {
  return ENV_PREFIX + flag.toUpperCase().replace(/-/g, "_");
}

export interface FlagsAndEnv<F extends Flags> extends CommandLine<F> {
  /** Where a flag's value came from, for a line about it: "--port", or "HR_MOCK_PORT" when its variable gave it. */
  named(flag: keyof F & string): string;
}

/**
 * `argv` read against `flags` (readFlags: every mistake a UsageError), then each flag not given
 * there taken from its variable in `env`; or "help". Defaults are the settings table's (app/settings.ts).
 */
export function readFlagsAndEnv<F extends Flags>(name: string, flags: F, argv: string[], env: Readonly<Record<string, string | undefined>>): FlagsAndEnv<F> | "help" {
  const line = readFlags(name, flags, argv);
  if (line === "help") return "help";
  const values = line.values as Record<string, string | boolean | string[] | boolean[] | undefined>;
  const fromEnv = new Set<string>();
  for (const [flag, option] of Object.entries(flags)) {
    if (values[flag] !== undefined) continue;
    const variable = envName(flag);
    const text = env[variable];
    if (text === undefined || text === "") continue;
    values[flag] = option.type === "boolean" ? switchValue(name, variable, text) : option.multiple ? text.split(",").map((part) => part.trim()).filter((part) => part !== "") : text;
    fromEnv.add(flag);
  }
  return { ...line, named: (flag) => (fromEnv.has(flag) ? envName(flag) : `--${flag}`) };
}

/** A switch's variable: true, false, 1 or 0 (in any letter case). */
function switchValue(name: string, variable: string, text: string): boolean {
  const value = text.trim().toLowerCase();
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw usage(name, `${variable} must be true, false, 1 or 0, got ${quoted(text)}`);
}

/** A settings table's flags as parseArgs reads them. */
export function flagsOf<S extends Record<string, { type: "boolean" | "string"; multiple?: true }>>(settings: S): { [K in keyof S]: { type: S[K]["type"]; multiple?: true } } {
  return Object.fromEntries(Object.entries(settings).map(([flag, { type, multiple }]) => [flag, multiple ? { type, multiple } : { type }])) as never;
}

/** The variables of a flag table, for --help: the names, wrapped to `width` columns after `indent`. */
export function envNamesText(flags: Flags, indent: string, width = 96): string {
  const lines: string[] = [];
  let line = indent;
  for (const name of Object.keys(flags).map(envName)) {
    if (line.length + name.length + 1 > width && line.trim() !== "") {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += `${name} `;
  }
  lines.push(line.trimEnd());
  return lines.join("\n");
}
