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

/** A value quoted for an answer's message, cut short so a huge parameter does not make a huge answer. */
export function quote(value: string): string {
  return JSON.stringify(cut(value, 60));
}

/** At most `max` UTF-16 units; a cut never splits a surrogate pair (half an emoji is not text). */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 3;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}...`;
}

/**
 * A copy of `text` that holds on to nothing else. V8 keeps a slice of a long string as a view of the
 * whole: the first 2 KB of a 12 KB URL, kept, keep all 12 KB. For what is kept long (the journal).
 */
export function ownCopy(text: string): string {
  // A JSON round trip builds a new string, lone surrogates included (TextDecoder would replace them).
  return JSON.parse(JSON.stringify(text)) as string;
}

/** What every webhook signing secret begins with. */
export const SECRET_PREFIX = "whsec_";

/** A signing secret: its prefix and the characters the control API lets one hold. */
const SECRET = new RegExp(`${SECRET_PREFIX}[A-Za-z0-9+/=_.-]*`, "g");

/** `text` with every signing secret cut to "whsec_…": no line, answer or journal shows one. */
export function maskSecrets(text: string): string {
  return text.replace(SECRET, `${SECRET_PREFIX}…`);
}
