// The type checker, run once over the whole project (`tsc --noEmit -p .`: src, mock, scripts,
// test and generated) by TypeScript 7, the native compiler (scripts/lib/native-tsc.ts). Its errors
// are reported where they belong: each test file holding compile-time assertions (expectTypeOf, a
// ts-expect-error comment) has a test of its own named after it, and one test covers every other file.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { errorsByFile, nativeTsc } from "../../scripts/lib/native-tsc.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";

const ASSERTION = /\bexpectTypeOf\b|\/\/ @ts-expect-error|\bassertType\b/;

/** Test files whose compile-time assertions the type check enforces. */
function typeTestFiles(dir = path.join(repoRoot, "test")): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".test.ts") && entry.name !== "typecheck.test.ts")
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)))
    .filter((file) => ASSERTION.test(readFileSync(path.join(repoRoot, file), "utf8").replace(/`[^`]*`/g, "")))
    .sort();
}

const TYPE_TESTS = typeTestFiles();
let errors: Map<string, string[]>;
let status: number | null;

beforeAll(async () => {
  const tsc = await nativeTsc(["--noEmit", "-p", repoRoot], repoRoot);
  status = tsc.status;
  errors = errorsByFile(tsc.output);
}, 240_000);

describe("tsc --noEmit -p . (run once)", () => {
  it("finds the test files with compile-time assertions", () => {
    expect(TYPE_TESTS.length, "no test file with expectTypeOf or @ts-expect-error found").toBeGreaterThan(0);
  });

  it.each(TYPE_TESTS)("%s: its compile-time assertions hold", (file) => {
    expect(errors.get(file) ?? [], `type errors in ${file}`).toEqual([]);
  });

  it("every other file of the project type-checks", () => {
    const others = [...errors].filter(([file]) => !TYPE_TESTS.includes(file)).flatMap(([, list]) => list);
    expect(others, "type errors outside the type tests").toEqual([]);
    // A failure that named no file (a broken tsconfig, a crash) is this test's too.
    expect(status === 0 || errors.size > 0, `tsc exited ${status} without reporting an error`).toBe(true);
  });
});
