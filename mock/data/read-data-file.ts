// Reading a data file: YAML or JSON, with the line and column of every node for its problems, then
// checked (check-data-file.ts). Every problem is one line naming the file, the place and the rule.
import { readFileSync } from "node:fs";
import { LineCounter, parseDocument, isMap, isSeq, type Node } from "yaml";
import { jsonOrUndefined } from "../kernel/json-text.js";
import { DataFileError, type DataFile, type LoadedDataFile } from "./data-file.js";
import { tokensOf } from "./data-file-repair.js";
import { checked } from "./check-data-file.js";

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
