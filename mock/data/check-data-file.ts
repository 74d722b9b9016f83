// A data file's content checked against its schema and for unique ids (the builder reports the other
// rules, data-file-repair.ts); apart from read-data-file.ts, so that an object loads no YAML parser.
import { readFileSync } from "node:fs";
import { compileSchema } from "../kernel/json-schema.js";
import { fileError, type DataFile, type DataFileProblem, type LoadedDataFile } from "./data-file.js";
import { repairForBuilder } from "./data-file-repair.js";

const SCHEMA_PATH = new URL("../../generated/data-file.schema.json", import.meta.url);

let validate: ReturnType<typeof compileSchema> | undefined;

/** A data file given as an object (startMock({ data })): places are JSON pointers. */
export function dataFileFromObject(content: unknown, name = "data"): LoadedDataFile {
  return checked({ name, content: content as DataFile, placeOf: (pointer) => pointer || "/" });
}

/** The file checked against the schema and for duplicate ids: the problems travel with it to the builder's; a non-object is refused here. */
export function checked(file: LoadedDataFile): LoadedDataFile {
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
