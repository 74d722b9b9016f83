// `Authorization: Bearer <API_KEY>` (read by src/bearer.ts) to a known key, or the reason it is
// refused (401). Messages name the problem, never the key.
import { bearerKey } from "../../src/bearer.js";
import type { ApiKey, KeyRegistry } from "./world.js";

export type AuthResult = { ok: true; apiKey: ApiKey } | { ok: false; message: string };

export const UNKNOWN_KEY = "Unauthorized: the API key is not known to this service.";

export function authenticate(header: string | undefined, keys: KeyRegistry): AuthResult {
  const bearer = bearerKey(header);
  if (!bearer.ok) return bearer;
  const apiKey = keys.get(bearer.key);
  return apiKey ? { ok: true, apiKey } : { ok: false, message: UNKNOWN_KEY };
}
