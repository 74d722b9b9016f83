// The documents a reader follows, the README and the guides under docs/guides/, and what the tests
// read from them: sections by heading, fenced blocks with their snippet marks, the commands of sh
// blocks as a reader types them, a command line's words. One mechanism for every document.
import fs from "node:fs";
import path from "node:path";
import { GUIDE_ORDER, GUIDES_DIR } from "../../scripts/docs/guides.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";

export interface Document {
  /** Relative to the repository, e.g. README.md or docs/guides/getting-started.md. */
  file: string;
  text: string;
}

const read = (file: string): Document => ({ file, text: fs.readFileSync(path.join(repoRoot, file), "utf8") });

export const README = read("README.md");
export const GUIDES: Document[] = GUIDE_ORDER.map((slug) => read(path.join(GUIDES_DIR, `${slug}.md`)));
export const DOCUMENTS: Document[] = [README, ...GUIDES];

export interface Section {
  doc: Document;
  /** From its heading line to the next heading of the same or a higher level. */
  text: string;
}

/** The headings of a Markdown text (lines inside fenced blocks are not headings), with where each starts. */
function headings(text: string): Array<{ level: number; title: string; at: number }> {
  const masked = text.replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, " "));
  return [...masked.matchAll(/^(#{1,6}) (.+)$/gm)].map((m) => ({ level: m[1].length, title: m[2], at: m.index! }));
}

/** The one section of the documents (all by default) whose heading is `title`; throws naming the documents when there is not exactly one. */
export function section(title: string, among: Document[] = DOCUMENTS): Section {
  const found: Section[] = [];
  for (const doc of among) {
    const all = headings(doc.text);
    all.forEach((heading, index) => {
      if (heading.title !== title) return;
      const end = all.slice(index + 1).find((next) => next.level <= heading.level);
      found.push({ doc, text: doc.text.slice(heading.at, end?.at) });
    });
  }
  if (found.length !== 1) throw new Error(`a section headed "${title}": found ${found.length} (${found.map((s) => s.doc.file).join(", ") || "in no document"})`);
  return found[0];
}

export interface Block {
  lang: string;
  body: string;
  /** The file a `<!-- snippet: FILE -->` line right above the block names. */
  snippet?: string;
}

export function fencedBlocks(text: string): Block[] {
  return [...text.matchAll(/(?:<!-- snippet: (\S+) -->\n)?```(\w*)\n([\s\S]*?)\n```/g)].map((m) => ({ snippet: m[1], lang: m[2], body: m[3] }));
}

/** The lines of a text's sh blocks, as written. */
export const shLines = (text: string): string[] =>
  fencedBlocks(text)
    .filter((block) => block.lang === "sh")
    .flatMap((block) => block.body.split("\n"))
    .filter((line) => line.trim() !== "");

/** A line without its trailing comment. */
export const withoutComment = (line: string) => line.replace(/\s+#.*$/, "").trim();

/**
 * Every command of a text's sh blocks, as a reader copies it: comments dropped, `&&` split, an
 * environment assignment before a command (CONTRACT_BASE=ref npm run diff) left to the shell.
 */
export const commands = (text: string): string[] =>
  shLines(text)
    .map(withoutComment)
    .filter(Boolean)
    .flatMap((line) => line.split("&&").map((part) => part.trim()))
    .map((command) => command.replace(/^([A-Z][A-Z0-9_]*=[^\s$]\S*\s+)+/, ""));

/** Words as a POSIX shell splits them (single and double quotes; nothing else is used). */
export function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** The long flags of a command line. */
export const flagsOf = (line: string): string[] => [...line.matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)].map((m) => m[1]);
