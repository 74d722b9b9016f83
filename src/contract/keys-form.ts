// The form of a keys file (hr-mock serve --keys, startMock's and createHandlers' keys, hr-contract
// pact --keys): the fields an entry may have, the permission names a key may hold (the spec's
// x-permission values and the one the AsyncAPI document names for webhook settings, generated),
// and the one check of an entry that both readers use. A problem is one line; a key itself is
// never repeated in it.
import { permissions } from "../../generated/facts.js";
import { webhookPermission } from "../../generated/webhook-facts.js";

export const KEY_FIELDS: readonly string[] = ["key", "organisation", "permissions", "label"];

export const KNOWN_PERMISSIONS: readonly string[] = [...Object.values(permissions), webhookPermission];

export const KEYS_FILE_SHAPE = '[{ "key": "...", "organisation": 1, "permissions": ["Leave: View"], "label": "..." }]';

/**
 * Who reads the file: the mock serves a key, so an entry needs its key and its organisation; the
 * Pact check only looks a key up, by its value or by the label a provider state names it with.
 */
export type KeysReader = "mock" | "pact";

/** One entry's fields, checked. */
export interface KeyEntry {
  key?: string;
  organisation?: number | string;
  /** Each name once, in the entry's order. */
  permissions: string[];
  label?: string;
}

/** Why the entries are not a keys file (not an array), or undefined. */
export function keysFileProblem(json: unknown): string | undefined {
  return Array.isArray(json) ? undefined : `must hold a JSON array like ${KEYS_FILE_SHAPE}`;
}

/** Why an entry is refused, without its place in the file. */
export interface KeyEntryProblem {
  problem: string;
}

/** One entry of a keys file, or why it is refused. */
export function readKeyEntry(entry: unknown, reader: "mock", knownPermissions?: readonly string[]): (KeyEntry & Required<Pick<KeyEntry, "key" | "organisation">>) | KeyEntryProblem;
export function readKeyEntry(entry: unknown, reader: KeysReader, knownPermissions?: readonly string[]): KeyEntry | KeyEntryProblem;
export function readKeyEntry(entry: unknown, reader: KeysReader, knownPermissions: readonly string[] = KNOWN_PERMISSIONS): KeyEntry | KeyEntryProblem {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return { problem: `must be an object like ${KEYS_FILE_SHAPE.slice(1, -1)}` };
  const extra = Object.keys(entry).find((name) => !KEY_FIELDS.includes(name));
  if (extra !== undefined) return { problem: `unknown field "${extra}" (fields: ${KEY_FIELDS.join(", ")})` };
  const { key, organisation, permissions: held, label } = entry as Record<string, unknown>;
  // The Pact check may name a key by its label alone.
  const keyNeeded = reader === "mock" || key !== undefined || typeof label !== "string";
  if (keyNeeded && (typeof key !== "string" || key.length === 0 || /\s/.test(key))) {
    return { problem: reader === "mock" ? `"key" must be a non-empty string without spaces` : `"key" must be a non-empty string without spaces, or give a "label" instead` };
  }
  if (label !== undefined && typeof label !== "string") return { problem: `"label" must be a string` };
  const organisationOk =
    (typeof organisation === "number" && Number.isInteger(organisation) && organisation >= 1) || (typeof organisation === "string" && organisation.length > 0);
  if ((reader === "mock" || organisation !== undefined) && !organisationOk) {
    return { problem: `"organisation" must be 1, 2 (the dataset's first or second organisation) or an organisation id` };
  }
  if (!Array.isArray(held) || !held.every((p) => typeof p === "string")) {
    return { problem: `"permissions" must be an array of permission names (${knownPermissions.join(", ")})` };
  }
  // A misspelt name would make a key without it: every request it is meant for refused, or, in a Pact check, a finding.
  const unknown = held.find((p) => !knownPermissions.includes(p));
  if (unknown !== undefined) return { problem: `unknown permission "${unknown}" (known: ${knownPermissions.join(", ")})` };
  return {
    ...(typeof key === "string" && { key }),
    ...(organisation !== undefined && { organisation: organisation as number | string }),
    permissions: [...new Set(held as string[])],
    ...(typeof label === "string" && { label }),
  };
}
