// Reading a data file: YAML or JSON, checked against generated/data-file.schema.json and for unique
// ids; the builder reports the other rules in the same run, reading the file without what the schema
// refused (data-file-repair.ts). Every problem is one line naming the file, the place and the rule.
import { readFileSync } from "node:fs";
import { LineCounter, parseDocument, isMap, isSeq, type Node } from "yaml";
import { compileSchema } from "../kernel/json-schema.js";
import { jsonOrUndefined } from "../kernel/json-text.js";
import { DataFileError, fileError, type DataFile, type DataFileProblem, type LoadedDataFile } from "./data-file.js";
import { repairForBuilder, tokensOf } from "./data-file-repair.js";

const SCHEMA_PATH = new URL("../../generated/data-file.schema.json", import.meta.url);

let validate: ReturnType<typeof compileSchema> | undefined;

/** Reads and checks a data file; throws DataFileError with every problem found. */
export function readDataFile(path: string): LoadedDataFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DataFileError([`${path}: cannot read the data file (${code === "ENOENT" ? "no such file" : code ?? (error as Error).message})`]);
  }
  return parseDataFile(text, path);
}

/** A data file's text, parsed and checked against the schema. */
export function parseDataFile(text: string, name: string): LoadedDataFile {
  // JSON takes the fast parser (a full export loads in well under a second rather than several);
  // the YAML parser, which knows lines and columns, runs on it only when a problem is reported.
  if (/^\s*\{/.test(text)) {
    const content = jsonOrUndefined(text);
    if (content !== undefined) {
      let document: ParsedText | undefined;
      return checked({ name, content: content as DataFile, placeOf: (pointer) => (document ??= parseText(text, name)).placeOf(pointer) });
    }
  }
  const document = parseText(text, name);
  return checked({ name, content: document.content as DataFile, placeOf: document.placeOf });
}

type ParsedText = Pick<LoadedDataFile, "placeOf"> & { content: unknown };

/** YAML (JSON is YAML too) with line and column for every node; broken text is a DataFileError. */
function parseText(text: string, name: string): ParsedText {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  // The first error is the mistake; the parser's later ones follow from it.
  const [error] = document.errors;
  if (error) {
    const at = lines.linePos(error.pos[0]);
    throw new DataFileError([`${name}:${at.line}:${at.col}: not valid YAML or JSON: ${error.message.split("\n")[0]}`]);
  }
  const placeOf = (pointer: string) => {
    const node = nodeAt(document.contents, pointer);
    if (!node?.range) return pointer === "" ? "1:1" : pointer;
    const { line, col } = lines.linePos(node.range[0]);
    return `${line}:${col}`;
  };
  return { content: document.toJS({ maxAliasCount: 100 }), placeOf };
}

/** A data file given as an object (startMock({ data })): places are JSON pointers. */
export function dataFileFromObject(content: unknown, name = "data"): LoadedDataFile {
  return checked({ name, content: content as DataFile, placeOf: (pointer) => pointer || "/" });
}

/** The file checked against the schema and for duplicate ids: the problems travel with it to the builder's; a non-object is refused here. */
function checked(file: LoadedDataFile): LoadedDataFile {
  validate ??= compileSchema(JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as Record<string, unknown>);
  if (validate(file.content)) {
    const problems = duplicateIds(file.content, file.placeOf);
    return problems.length > 0 ? { ...file, problems } : file;
  }
  const errors = validate.errors ?? [];
  const seen = new Set<string>();
  const problems = errors
    // anyOf's and oneOf's own summary adds nothing to their branches' messages.
    .filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf")
    .map((e) => {
      const where = e.keyword === "additionalProperties" ? `${e.instancePath}/${e.params.additionalProperty}` : e.instancePath;
      const what = e.keyword === "additionalProperties" ? "is not a field of the data file format" : e.keyword === "enum" ? `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` : e.message ?? e.keyword;
      return { pointer: where, message: `${where || "the file"}: ${what}` };
    })
    .filter((p) => !seen.has(p.pointer + p.message) && seen.add(p.pointer + p.message));
  const repaired = repairForBuilder(file.content, errors);
  if (repaired.content === undefined) throw fileError(file, problems);
  return { ...file, content: repaired.content, problems: [...problems, ...duplicateIds(repaired.content, file.placeOf)], quiet: repaired.quiet };
}

const COLLECTIONS = ["companies", "departments", "employees", "leaveTypes", "leaveRequests"] as const;

/** Ids given twice, anywhere in the file (ids are uuids: unique across organisations too). */
function duplicateIds(content: DataFile, placeOf: (pointer: string) => string): DataFileProblem[] {
  const first = new Map<string, string>();
  const problems: DataFileProblem[] = [];
  const note = (id: string | undefined, pointer: string) => {
    if (id === undefined) return;
    const key = id.toLowerCase();
    const earlier = first.get(key);
    if (earlier) problems.push({ pointer, message: `${pointer}: id ${id} is given twice (also at ${placeOf(earlier)}, ${earlier}); ids must be unique` });
    else first.set(key, pointer);
  };
  (content.organisations ?? []).forEach((org, o) => {
    note(org.id, `/organisations/${o}/id`);
    for (const collection of COLLECTIONS) {
      (org[collection] ?? []).forEach((entry, i) => note(entry.id, `/organisations/${o}/${collection}/${i}/id`));
    }
    (org.departments ?? []).forEach((d, i) => (d.units ?? []).forEach((u, k) => note(u.id, `/organisations/${o}/departments/${i}/units/${k}/id`)));
  });
  return problems;
}

/** The YAML node at a JSON pointer (the deepest one that exists). */
function nodeAt(root: unknown, pointer: string): Node | undefined {
  let node = root as Node | undefined;
  for (const key of tokensOf(pointer)) {
    let next: unknown;
    if (isMap(node)) next = node.items.find((pair) => (pair.key as { value?: unknown } | null)?.value === key)?.value;
    else if (isSeq(node)) next = node.items[Number(key)];
    if (!next) break;
    node = next as Node;
  }
  return node;
}
