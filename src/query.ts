// A request target as sent (`/v1/leaverequest/list?PageSize=5`) split into its path and query
// string, and the query read as names to values: one reading for the mock (the request path, the
// proxy's check, the journal: what a filter matches is what the operation was given) and the light
// package (the receiver's path, the pact check).

/** The path and the query string (without "?") of a request target. */
export function splitTarget(url: string): { path: string; search: string } {
  const start = url.indexOf("?");
  return start < 0 ? { path: url, search: "" } : { path: url.slice(0, start), search: url.slice(start + 1) };
}

/** A query component as URLSearchParams reads it ("+" a space, %XX its byte); as sent when it is not valid percent-encoding. */
export function queryComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** A path fragment percent-decoded, as Prism's router reads it; as sent when it does not decode. */
export function pathFragment(fragment: string): string {
  if (!fragment.includes("%")) return fragment;
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** Query string to name → value, names as sent, a repeated name giving a list (as Prism's server does). */
export function parseQuery(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (search === "") return query;
  for (const [name, value] of new URLSearchParams(search)) {
    const previous = query[name];
    if (previous === undefined) query[name] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else query[name] = [previous, value];
  }
  return query;
}
