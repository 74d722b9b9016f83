// How the mock quotes outside text (paths, URLs, flag values, error messages) in its answers, log
// lines and CLI lines: printable ASCII only, on one line, cut short, so a hostile request or a
// runaway error cannot make a huge or multi-line answer.

/** `text` with anything but printable ASCII as "?", at most `max` characters ("..." marks a cut). */
export function printable(text: string, max: number): string {
  return cut(text.replace(/[^\x20-\x7e]/g, "?"), max);
}

/** `text` with every run of white space (line breaks too) as one space, at most `max` characters. */
export function oneLine(text: string, max = 300): string {
  return cut(text.replace(/\s+/g, " ").trim(), max);
}

/** An error as "Name: message" (anything thrown that is not an Error, as text). */
export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
