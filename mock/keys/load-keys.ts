// `--keys FILE`: more API keys from a JSON file, checked entry by entry. Every problem is one line
// naming the file and the entry; a key itself is never repeated in a message.
import { readFile } from "node:fs/promises";
import type { KeySpec } from "./demo-keys.js";
import { KEY_FIELDS } from "../../src/contract/keys-form.js";

export class KeysFileError extends Error {
  override name = "KeysFileError";
}

export const KEYS_FILE_SHAPE = '[{ "key": "...", "organisation": 1, "permissions": ["Leave: View"], "label": "..." }]';

export async function readKeysFile(path: string, knownPermissions: readonly string[]): Promise<KeySpec[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new KeysFileError(`cannot read keys file ${path}: ${code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new KeysFileError(`keys file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseKeySpecs(json, knownPermissions, `keys file ${path}`);
}

/** Checks the parsed JSON of a keys file (or keys given to startMock). */
export function parseKeySpecs(json: unknown, knownPermissions: readonly string[], source = "keys"): KeySpec[] {
  if (!Array.isArray(json)) throw new KeysFileError(`${source} must hold a JSON array like ${KEYS_FILE_SHAPE}`);
  const seen = new Set<string>();
  return json.map((entry, index) => {
    const where = `${source}: entry ${index + 1}`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw new KeysFileError(`${where} must be an object like ${KEYS_FILE_SHAPE.slice(1, -1)}`);
    }
    const { key, organisation, permissions, label } = entry as Record<string, unknown>;
    const extra = Object.keys(entry).find((name) => !KEY_FIELDS.includes(name));
    if (extra !== undefined) throw new KeysFileError(`${where}: unknown field "${extra}" (fields: ${KEY_FIELDS.join(", ")})`);
    if (typeof key !== "string" || key.length === 0 || /\s/.test(key)) {
      throw new KeysFileError(`${where}: "key" must be a non-empty string without spaces`);
    }
    if (seen.has(key)) throw new KeysFileError(`${where}: the same key appears in an earlier entry`);
    seen.add(key);
    const organisationOk =
      (typeof organisation === "number" && Number.isInteger(organisation) && organisation >= 1) ||
      (typeof organisation === "string" && organisation.length > 0);
    if (!organisationOk) {
      throw new KeysFileError(`${where}: "organisation" must be 1, 2 (the dataset's first or second organisation) or an organisation id`);
    }
    if (!Array.isArray(permissions) || !permissions.every((p) => typeof p === "string")) {
      throw new KeysFileError(`${where}: "permissions" must be an array of permission names (${knownPermissions.join(", ")})`);
    }
    const unknown = permissions.find((p) => !knownPermissions.includes(p));
    if (unknown !== undefined) {
      throw new KeysFileError(`${where}: unknown permission "${unknown}" (known: ${knownPermissions.join(", ")})`);
    }
    if (label !== undefined && typeof label !== "string") throw new KeysFileError(`${where}: "label" must be a string`);
    return {
      key,
      organisation: organisation as number | string,
      permissions: [...new Set(permissions as string[])],
      label: (label as string | undefined) ?? `keys file entry ${index + 1}`,
    };
  });
}
