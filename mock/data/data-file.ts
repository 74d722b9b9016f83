// Data files (`hr-mock serve --data FILE`, startMock({ data })) as the builder takes them once
// check-data-file.ts has checked one: the error listing a file's problems and the organisations'
// entries with where to report. No Node module here: the browser's dataset (MSW) builds through it.
import type { DataFile, DataFileProblem, GivenOrganization, Place } from "./from-file.js";

export type { DataFile, DataFileProblem } from "./from-file.js";

/** A data file that cannot be used: one line per problem, each naming the file and the place. */
export class DataFileError extends Error {
  constructor(
    readonly lines: readonly string[],
    /** The problems the lines tell, with their JSON pointers (when they came from checking a file). */
    readonly problems: readonly DataFileProblem[] = [],
  ) {
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
  /** Problems found in reading (the schema, duplicate ids); `content` is then the file without what the schema refused. */
  problems?: readonly DataFileProblem[];
  /** Places whose builder problems follow from a problem of `problems` (not told twice). */
  quiet?: readonly string[];
}

/** Every problem of a file in one error, in the order they stand in the file when it is text. */
export function fileError(file: LoadedDataFile, problems: readonly DataFileProblem[]): DataFileError {
  const placed = problems.map((p) => ({ ...p, place: file.placeOf(p.pointer) }));
  const position = (place: string) => /^(\d+):(\d+)$/.exec(place)?.slice(1).map(Number);
  placed.sort((a, b) => {
    const [pa, pb] = [position(a.place), position(b.place)];
    return pa && pb ? pa[0] - pb[0] || pa[1] - pb[1] : 0;
  });
  return new DataFileError(placed.slice(0, 50).map((p) => `${file.name}:${p.place}: ${p.message}`).concat(problems.length > 50 ? [`${file.name}: ${problems.length - 50} more problems`] : []), problems);
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
