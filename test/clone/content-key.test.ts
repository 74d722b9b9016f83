// The development bundle's key (scripts/lib/content-key.mjs) follows the content of its inputs,
// never their times: touching or rewriting a file with the same bytes keeps it, any change of
// content, a new file or a removed one changes it; an unchanged tree is not read again.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contentKey } from "../../scripts/lib/content-key.mjs";

let root: string;
const cacheFile = () => path.join(root, "cache", "hashes.json");
const keyOf = () => contentKey({ root, inputs: ["src", "notes.txt"], cacheFile: cacheFile(), skip: (p) => /(^|\/)(dist|cache)$/.test(p) });
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};
/** A later time than any the files had, as a second save would give them. */
const later = () => new Date(Date.now() + 60_000);

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "content-key-"));
  write("src/a.ts", "export const a = 1;\n");
  write("src/deep/b.ts", "export const b = 2;\n");
  write("notes.txt", "notes\n");
  write("src/dist/out.js", "built\n");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the key", () => {
  const CASES: Array<[string, { change: () => void; same: boolean }]> = [
    ["a file touched (new time, same bytes)", { change: () => fs.utimesSync(path.join(root, "src/a.ts"), later(), later()), same: true }],
    ["a file rewritten with the same bytes", { change: () => write("src/deep/b.ts", "export const b = 2;\n"), same: true }],
    ["a skipped output rewritten", { change: () => write("src/dist/out.js", "built again\n"), same: true }],
    ["a file's content changed", { change: () => write("src/a.ts", "export const a = 3;\n"), same: false }],
    ["a change of the same size", { change: () => write("src/a.ts", "export const a = 9;\n"), same: false }],
    ["a file added", { change: () => write("src/c.ts", ""), same: false }],
    ["a file removed", { change: () => fs.rmSync(path.join(root, "src/deep/b.ts")), same: false }],
    ["a file renamed, same bytes", { change: () => fs.renameSync(path.join(root, "src/deep/b.ts"), path.join(root, "src/deep/c.ts")), same: false }],
    ["an input that is a file changed", { change: () => write("notes.txt", "other notes\n"), same: false }],
  ];

  it.each(CASES)("%s", (_name, { change, same }) => {
    const before = keyOf();
    change();
    const after = keyOf();
    if (same) expect(after.key, "the key after a change of time only").toBe(before.key);
    else expect(after.key, "the key after a change of content").not.toBe(before.key);
  });

  it("is the same from a cold cache as from a warm one", () => {
    const warm = (keyOf(), keyOf());
    fs.rmSync(cacheFile());
    expect(keyOf().key).toBe(warm.key);
  });
});

describe("the cache of hashes", () => {
  it("an unchanged tree is not read: only files whose size or time moved are", () => {
    expect(keyOf(), "first: every input read").toMatchObject({ files: 3, read: 3 });
    expect(keyOf(), "unchanged: nothing read").toMatchObject({ files: 3, read: 0 });
    fs.utimesSync(path.join(root, "notes.txt"), later(), later());
    expect(keyOf(), "one touched: that one read").toMatchObject({ files: 3, read: 1 });
    expect(keyOf().read, "and then nothing again").toBe(0);
  });

  it("a torn or foreign cache file is read as empty, never trusted", () => {
    const good = keyOf().key;
    fs.writeFileSync(cacheFile(), '{"version":1,"files":{"src/a.ts":["x"');
    expect(keyOf(), "after a torn cache").toMatchObject({ key: good, read: 3 });
    fs.writeFileSync(cacheFile(), JSON.stringify({ version: 0, files: { "src/a.ts": ["whatever", "0".repeat(64)] } }));
    expect(keyOf(), "after a cache of another version").toMatchObject({ key: good, read: 3 });
  });
});
