// JSON read from text that may not be JSON: a state file a crash or a hand damaged, a data file, an
// upstream's answer. The callers say what is wrong in their own words.

/** The value of `text`, or undefined when it is not JSON (no JSON text gives undefined). */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
