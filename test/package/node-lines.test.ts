// The Node lines the packages promise and the matrix that keeps the promise (npm run
// test:node-matrix, scripts/node-matrix.ts): both packages' engines name exactly the lines the
// matrix runs, each pinned release meets them, the README says which, and the matrix tells a
// warning of the packages' own code from one of msw, the peer a user installs beside them.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { warningsIn } from "../../scripts/node-matrix.js";
import { NODE_LINES } from "../../scripts/node-matrix/lines.js";

const manifest = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), "utf8"));
const numbers = (version: string) => version.split(".").map(Number);
const atLeast = (version: string, minimum: string) => {
  const [a, b] = [numbers(version), numbers(minimum)];
  const at = a.findIndex((n, i) => n !== b[i]);
  return at < 0 || a[at] > b[at];
};

describe("engines", () => {
  it.each(["package.json", "mock/package.json"])("%s names the matrix's lines, each from a release the matrix's pin meets", (file) => {
    const range = manifest(file).engines?.node as string;
    const parts = range.split("||").map((part) => part.trim());
    for (const part of parts) expect(part, `${file}: engines.node part "${part}" is not ^MAJOR.MINOR.PATCH`).toMatch(/^\^\d+\.\d+\.\d+$/);
    const minimums = new Map(parts.map((part) => [numbers(part.slice(1))[0], part.slice(1)]));
    expect([...minimums.keys()], `${file}: the lines engines.node names`).toEqual(NODE_LINES.map((l) => l.line));
    for (const { line, release } of NODE_LINES) expect(atLeast(release, minimums.get(line)!), `Node ${release} (the matrix's) meets ^${minimums.get(line)}`).toBe(true);
  });

  it("the README names the matrix's command and each release it runs", () => {
    const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8").replace(/\s+/g, " ");
    expect(manifest("package.json").scripts["test:node-matrix"]).toBe("tsx scripts/node-matrix.ts");
    expect(readme).toContain("`npm run test:node-matrix`");
    for (const { release } of NODE_LINES) expect(readme, `the README names Node ${release}`).toContain(release);
  });
});

describe("the matrix's reading of Node's warnings (--trace-warnings)", () => {
  const msw = "(node:1) ExperimentalWarning: localStorage is not available because --localstorage-file was not provided.\n    at Object.get (node:internal/webstorage:42:21)\n    at CookieStore.getCookieStoreIndex (file:///p/node_modules/msw/lib/core/utils/cookieStore.mjs:32:5)\n";
  const ours = "(node:2) DeprecationWarning: old\n    at run (/p/node_modules/hr-service-mock/dist/mock/cli/main.js:3:1)\n";
  it.each([
    ["nothing", { given: "", want: { warnings: [], rest: "" } }],
    ["a progress line is not a warning", { given: "hr-mock: draining\n", want: { warnings: [], rest: "hr-mock: draining\n" } }],
    ["msw's warning, by the first file of its stack", { given: msw, want: { warnings: [{ text: expect.stringMatching(/^ExperimentalWarning: localStorage/), file: "/p/node_modules/msw/lib/core/utils/cookieStore.mjs" }], rest: "" } }],
    ["a warning of the mock's own code, between other lines", { given: `a\n${ours}b\n`, want: { warnings: [{ text: "DeprecationWarning: old", file: "/p/node_modules/hr-service-mock/dist/mock/cli/main.js" }], rest: "a\nb\n" } }],
    ["a warning without a stack", { given: "(node:3) Warning: x\n", want: { warnings: [{ text: "Warning: x", file: undefined }], rest: "" } }],
  ] as const)("%s", (_name, { given, want }) => {
    expect(warningsIn(given)).toEqual(want);
  });
});
