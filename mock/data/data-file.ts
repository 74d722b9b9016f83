// Data files (`hr-mock serve --data FILE`, startMock({ data })): read as YAML (JSON is YAML too, so
// one parser gives line and column for both), checked against generated/data-file.schema.json,
// then against the rules the schema cannot state (ids unique, references that name a record); the
// builder (build-organization.ts) reports what only it can see. Every problem is one line naming the
// file, the place and the rule; nothing is built from a file with a problem.
import { readFileSync } from "node:fs";
import { LineCounter, parseDocument, isMap, isSeq, type Node } from "yaml";
import { compileSchema } from "../webhooks/schemas.js";
import type { DataFile, DataFileProblem, GivenOrganization, Place } from "./from-file.js";

export type { DataFile, DataFileProblem } from "./from-file.js";

const SCHEMA_PATH = new URL("../../generated/data-file.schema.json", import.meta.url);

/** A data file that cannot be used: one line per problem, each naming the file and the place. */
export class DataFileError extends Error {
  constructor(readonly lines: readonly string[]) {
    super(lines.join("\n"));
    this.name = "DataFileError";
  }
}

/** A data file as read: its content and, for messages, where each JSON pointer is in the text. */
export interface LoadedDataFile {
  /** The file's name as the user gave it (or "data" for an object given in code). */
  name: string;
  content: DataFile;
  /** `line:column` of a JSON pointer, or the pointer itself when the text is not known. */
  placeOf(pointer: string): string;
}

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
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new DataFileError(
      // The first error is the mistake; the parser's later ones follow from it.
      document.errors.slice(0, 1).map((e) => {
        const at = lines.linePos(e.pos[0]);
        return `${name}:${at.line}:${at.col}: not valid YAML or JSON: ${e.message.split("\n")[0]}`;
      }),
    );
  }
  const content = document.toJS({ maxAliasCount: 100 }) as unknown;
  const placeOf = (pointer: string) => {
    const node = nodeAt(document.contents, pointer);
    if (!node?.range) return pointer === "" ? "1:1" : pointer;
    const { line, col } = lines.linePos(node.range[0]);
    return `${line}:${col}`;
  };
  return checked({ name, content: content as DataFile, placeOf });
}

/** A data file given as an object (startMock({ data })): places are JSON pointers. */
export function dataFileFromObject(content: unknown, name = "data"): LoadedDataFile {
  return checked({ name, content: content as DataFile, placeOf: (pointer) => pointer || "/" });
}

function checked(file: LoadedDataFile): LoadedDataFile {
  validate ??= compileSchema(JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as Record<string, unknown>);
  if (!validate(file.content)) {
    const seen = new Set<string>();
    const problems = (validate.errors ?? [])
      // anyOf's and oneOf's own summary adds nothing to their branches' messages.
      .filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf")
      .map((e) => {
        const where = e.keyword === "additionalProperties" ? `${e.instancePath}/${e.params.additionalProperty}` : e.instancePath;
        const what = e.keyword === "additionalProperties" ? "is not a field of the data file format" : e.keyword === "enum" ? `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` : e.message ?? e.keyword;
        return { pointer: where, message: `${where || "the file"}: ${what}` };
      })
      .filter((p) => !seen.has(p.pointer + p.message) && seen.add(p.pointer + p.message));
    throw fileError(file, problems);
  }
  const problems = duplicateIds(file.content, file.placeOf);
  if (problems.length > 0) throw fileError(file, problems);
  return file;
}

export function fileError(file: LoadedDataFile, problems: readonly DataFileProblem[]): DataFileError {
  return new DataFileError(problems.slice(0, 50).map((p) => `${file.name}:${file.placeOf(p.pointer)}: ${p.message}`).concat(problems.length > 50 ? [`${file.name}: ${problems.length - 50} more problems`] : []));
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

/** The organisation entries of a checked file, each with the builder's problem sink. */
export function givenOrganizations(file: LoadedDataFile, problems: DataFileProblem[]): GivenOrganization[] {
  const organisations = file.content.organisations ?? [];
  const leaveTypeIds = organisations.map((org) => new Set((org.leaveTypes ?? []).flatMap((t) => (t.id ? [t.id] : []))));
  return organisations.map((input, o) => {
    const others = new Set(leaveTypeIds.flatMap((ids, k) => (k === o ? [] : [...ids])));
    const at = (path: string): Place => {
      const pointer = `/organisations/${o}/${path}`;
      return { pointer, problem: (field, message) => problems.push({ pointer: field ? `${pointer}/${field}` : pointer, message: `${field ? `${pointer}/${field}` : pointer}: ${message}` }) };
    };
    return { input, at, otherLeaveTypeIds: others, problems };
  });
}

/** The YAML node at a JSON pointer (the deepest one that exists). */
function nodeAt(root: unknown, pointer: string): Node | undefined {
  let node = root as Node | undefined;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    let next: unknown;
    if (isMap(node)) next = node.items.find((pair) => (pair.key as { value?: unknown } | null)?.value === key)?.value;
    else if (isSeq(node)) next = node.items[Number(key)];
    if (!next) break;
    node = next as Node;
  }
  return node;
}
