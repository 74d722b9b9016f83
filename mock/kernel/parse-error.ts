// How the hr-mock commands turn node:util parseArgs errors into one line: the option named, never
// a value longer than a line (a value may be a secret), and the fix for a negative number.
import { printable } from "./text.js";

/** A value a CLI line may quote: printable, short. */
export function shown(text: string): string {
  return printable(text, 60);
}

/** A value quoted for a CLI line: printable, short, in double quotes. */
export function quoted(text: string): string {
  return JSON.stringify(shown(text));
}

/** A whole number as a flag or a variable writes it (digits, an optional minus), or NaN. */
export const readWhole = (text: string) => (/^-?\d+$/.test(text.trim()) ? Number(text) : NaN);
/** A decimal number as a flag or a variable writes it (no hex, no Infinity, nothing blank), or NaN. */
export const readDecimal = (text: string) => (/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text) ? Number(text) : NaN);

/** A parseArgs error as one line naming the option; `argv` is what was parsed (to quote a value meant for an option). */
export function describeParseError(error: NodeJS.ErrnoException, argv: readonly string[]): string {
  const named = /'([^']+)'/.exec(error.message)?.[1] ?? "";
  const option = shown(named.split(/\s/)[0]);
  switch (error.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${option}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      if (/argument missing/.test(error.message)) return `option ${option} needs a value`;
      if (/ambiguous/.test(error.message)) {
        // Node's message does not quote the value; the argument after the option is the one meant.
        const meant = argv[argv.indexOf(option) + 1] ?? "-5";
        return `option ${option} needs a value; write ${option}=${shown(meant)} for a value that starts with "-"`;
      }
      return `option ${option} takes no value`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument ${shown(named)}`;
    default:
      return shown(error.message.split(/\.\s/)[0]);
  }
}
