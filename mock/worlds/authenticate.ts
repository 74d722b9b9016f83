// `Authorization: Bearer <API_KEY>` to a known key, or the reason it is refused (401). Messages
// name the problem, never the key.
import type { ApiKey, KeyRegistry } from "./world.js";

export type AuthResult = { ok: true; apiKey: ApiKey } | { ok: false; message: string };

const MISSING = "Unauthorized: the Authorization header is missing; send Authorization: Bearer <API_KEY>.";
export const UNKNOWN_KEY = "Unauthorized: the API key is not known to this service.";

export function authenticate(header: string | undefined, keys: KeyRegistry): AuthResult {
  // The usual case first: one lookup.
  if (header !== undefined && header.startsWith("Bearer ")) {
    const apiKey = keys.get(header.slice(7));
    if (apiKey) return { ok: true, apiKey };
  }
  if (header === undefined || header.trim() === "") return { ok: false, message: MISSING };
  // The scheme is case-insensitive (RFC 9110); one credential follows it.
  const match = /^(\S+)(?:\s+(.*))?$/.exec(header.trim());
  const scheme = match?.[1] ?? "";
  const credential = (match?.[2] ?? "").trim();
  if (scheme.toLowerCase() !== "bearer") {
    const named = /^[A-Za-z][A-Za-z0-9_-]{0,19}$/.test(scheme) && credential !== "" ? ` (got the ${scheme} scheme)` : "";
    return { ok: false, message: `Unauthorized: the Authorization header must be Bearer <API_KEY>${named}.` };
  }
  if (credential === "") return { ok: false, message: "Unauthorized: the API key after Bearer is empty; send Authorization: Bearer <API_KEY>." };
  if (/\s/.test(credential)) return { ok: false, message: "Unauthorized: the Authorization header must hold one API key after Bearer, without spaces." };
  const apiKey = keys.get(credential);
  return apiKey ? { ok: true, apiKey } : { ok: false, message: UNKNOWN_KEY };
}

/** Does the key hold the permission the operation's x-permission names? */
export function hasPermission(apiKey: ApiKey, permission: string): boolean {
  return apiKey.permissions.has(permission);
}

export function forbiddenMessage(permission: string): string {
  return `Forbidden: this API key lacks the permission ${permission}.`;
}
