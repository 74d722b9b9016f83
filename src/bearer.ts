// The one reader of `Authorization: Bearer <API_KEY>` (RFC 9110: the scheme in any letter case,
// spaces around the credential): the key it carries, or why it carries none (a 401's message,
// naming the problem, never the key). The mock's key check, its lookup of a sandbox's key in the
// state and the proxy, and the pact check, all read the header through it: they agree on what a key is.

export type BearerKey = { ok: true; key: string } | { ok: false; message: string };

const MISSING = "Unauthorized: the Authorization header is missing; send Authorization: Bearer <API_KEY>.";

export function bearerKey(header: string | undefined): BearerKey {
  // The usual case first: no regular expression but the check for spaces.
  if (header !== undefined && header.startsWith("Bearer ")) {
    const key = header.slice(7);
    if (key !== "" && !/\s/.test(key)) return { ok: true, key };
  }
  if (header === undefined || header.trim() === "") return { ok: false, message: MISSING };
  const match = /^(\S+)(?:\s+(.*))?$/.exec(header.trim());
  const scheme = match?.[1] ?? "";
  const key = (match?.[2] ?? "").trim();
  if (scheme.toLowerCase() !== "bearer") {
    const named = /^[A-Za-z][A-Za-z0-9_-]{0,19}$/.test(scheme) && key !== "" ? ` (got the ${scheme} scheme)` : "";
    return { ok: false, message: `Unauthorized: the Authorization header must be Bearer <API_KEY>${named}.` };
  }
  if (key === "") return { ok: false, message: "Unauthorized: the API key after Bearer is empty; send Authorization: Bearer <API_KEY>." };
  if (/\s/.test(key)) return { ok: false, message: "Unauthorized: the Authorization header must hold one API key after Bearer, without spaces." };
  return { ok: true, key };
}
