// A data file the schema refuses still goes to the builder, so one run names every problem: a
// refused value is left out of a copy (the builder generates it), an array is cut to its maximum,
// and an entry missing a required field is kept but marked, so what follows from it is not told twice.
import type { ErrorObject } from "ajv";
import type { DataFile } from "./from-file.js";

/** One error of the schema check: where (a JSON pointer), which keyword, its parameters. */
type SchemaFinding = Pick<ErrorObject, "instancePath" | "keyword" | "params">;

interface Repaired {
  /** The file without what the schema refused; undefined when nothing can be built from it. */
  content: DataFile | undefined;
  /** Places the builder's problems are not told under: their cause is a schema problem already told. */
  quiet: string[];
}

/** Where collection entries sit: /organisations/<o>/<collection>/<i>. */
const ENTRY_DEPTH = 4;

/** A JSON pointer's unescaped tokens. */
export const tokensOf = (pointer: string) => pointer.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
const pointerOf = (tokens: readonly string[]) => tokens.map((t) => `/${t.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");

/** `content` with every value `findings` name left out (a copy; the original is not changed). */
export function repairForBuilder(content: unknown, findings: readonly SchemaFinding[]): Repaired {
  if (!content || typeof content !== "object" || Array.isArray(content)) return { content: undefined, quiet: [] };
  const copy = structuredClone(content) as Record<string, unknown>;
  const quiet: string[] = [];
  for (const finding of findings) {
    const tokens = tokensOf(finding.instancePath);
    if (finding.keyword === "additionalProperties") {
      remove(copy, [...tokens, String(finding.params.additionalProperty)]);
      continue;
    }
    if (finding.keyword === "maxItems") {
      const array = at(copy, tokens);
      if (Array.isArray(array)) array.length = Number(finding.params.limit);
      continue;
    }
    if (finding.keyword === "anyOf" || finding.keyword === "oneOf") continue; // their branches' errors say where
    // The field of the entry (or of the file, or of the organisation) that holds the refused value.
    const depth = tokens.length > ENTRY_DEPTH ? ENTRY_DEPTH + 1 : tokens.length;
    if (depth === 0 || depth === 2) return { content: undefined, quiet }; // the file or an organisation is not an object
    if (depth === ENTRY_DEPTH) {
      quiet.push(pointerOf(tokens.slice(0, ENTRY_DEPTH)));
      continue;
    }
    const field = tokens.slice(0, depth);
    remove(copy, field);
    quiet.push(pointerOf(field));
  }
  return { content: copy as DataFile, quiet };
}

/** Whether a builder's problem at `pointer` follows from one told already (at or under a quiet place). */
export function isQuiet(pointer: string, quiet: readonly string[]): boolean {
  return quiet.some((place) => pointer === place || pointer.startsWith(`${place}/`));
}

function at(root: unknown, tokens: readonly string[]): unknown {
  return tokens.reduce<any>((node, token) => (node && typeof node === "object" ? node[token] : undefined), root);
}

function remove(root: unknown, tokens: readonly string[]): void {
  const parent = at(root, tokens.slice(0, -1));
  if (parent && typeof parent === "object" && !Array.isArray(parent)) delete (parent as Record<string, unknown>)[tokens[tokens.length - 1]];
}
