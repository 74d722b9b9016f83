// `--keys FILE`: more API keys from a JSON file, checked entry by entry. Every problem is one line
// naming the file and the entry; a key itself is never repeated in a message.
import { readFile } from "node:fs/promises";
import type { KeySpec } from "./demo-keys.js";
import { keysFileProblem, readKeyEntry } from "../../src/contract/keys-form.js";

export class KeysFileError extends Error {
  override name = "KeysFileError";
}

export async function readKeysFile(path: string): Promise<KeySpec[]> {
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
  return parseKeySpecs(json, `keys file ${path}`);
}

/** Checks the parsed JSON of a keys file (or keys given to startMock or createHandlers); the permissions a key may hold are keys-form.ts's. */
export function parseKeySpecs(json: unknown, source = "keys"): KeySpec[] {
  const notAFile = keysFileProblem(json);
  if (notAFile !== undefined) throw new KeysFileError(`${source}: ${notAFile}`);
  const seen = new Set<string>();
  return (json as unknown[]).map((given, index) => {
    const where = `${source}: entry ${index + 1}`;
    const entry = readKeyEntry(given, "mock");
    if ("problem" in entry) throw new KeysFileError(`${where}: ${entry.problem}`);
    const { key, organisation } = entry;
    if (seen.has(key)) throw new KeysFileError(`${where}: the same key appears in an earlier entry`);
    seen.add(key);
    return { key, organisation, permissions: entry.permissions, label: entry.label ?? `keys file entry ${index + 1}` };
  });
}
