// Retry-After (RFC 9110 section 10.2.3): either whole seconds or an HTTP-date.

/**
 * Seconds to wait, never negative; undefined when the header is absent or unreadable.
 * `nowMs` is the clock for the HTTP-date form.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  // Only the date forms (they all contain a letter and a colon); Date.parse alone accepts "1.5".
  if (!/[a-z]/i.test(text) || !text.includes(":")) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}
