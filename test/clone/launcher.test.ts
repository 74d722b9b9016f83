// The launcher in a clone (mock/bin/hr-mock.js): its development bundle is built once per change
// of content, however many hr-mock start at once, and says so while it builds. Run against a
// clone of its own in a scratch folder, whose scripts/dev-bundle.ts is a stand-in that builds in a
// moment (a CLI that prints a usage line) and logs each build; the launcher, the key and the lock
// are the repository's own files.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/lib/spec-document.js";

const BUILDING = "hr-mock: building the mock from its sources, first run after a change…";
const WAITING = "hr-mock: another hr-mock is building the mock from its sources; waiting for it…";

/** The stand-in build: logs its pid, waits for the file "release" when there is a file "hold", writes a CLI. */
const STAND_IN_BUILD = `import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
const clone = path.resolve(import.meta.dirname, "..");
export async function buildDevBundle(folder: string): Promise<void> {
  appendFileSync(path.join(clone, "builds.log"), process.pid + "\\n");
  if (existsSync(path.join(clone, "hold"))) await new Promise<void>((resolve) => {
    const look = () => (existsSync(path.join(clone, "release")) ? resolve() : setTimeout(look, 5));
    look();
  });
  mkdirSync(path.join(folder, "dist/mock/cli"), { recursive: true });
  writeFileSync(path.join(folder, "dist/mock/cli/main.js"), "export async function run() { process.stdout.write('Usage: hr-mock (stand-in)\\\\n'); return 0; }\\n");
}
`;

let clone: string;
const bundles = () => path.join(clone, "node_modules/.cache/hr-mock-dev");
const builds = () => (fs.existsSync(path.join(clone, "builds.log")) ? fs.readFileSync(path.join(clone, "builds.log"), "utf8").trim().split("\n").length : 0);

beforeAll(() => {
  clone = fs.mkdtempSync(path.join(os.tmpdir(), "launcher-clone-"));
  const copy = (file: string) => {
    fs.mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, file), path.join(clone, file));
  };
  for (const file of ["mock/bin/hr-mock.js", "scripts/lib/dev-bundle-folder.mjs", "scripts/lib/content-key.mjs", "scripts/lib/build-once.mjs", "mock/cli/main.ts", "mock/index.ts", "package-lock.json"]) copy(file);
  fs.writeFileSync(path.join(clone, "scripts/dev-bundle.ts"), STAND_IN_BUILD);
  fs.writeFileSync(path.join(clone, "package.json"), JSON.stringify({ type: "module" }));
  fs.writeFileSync(path.join(clone, "mock/package.json"), JSON.stringify({ type: "module" }));
  // tsx, as the clone's development tools: its own dependencies resolve from where it really is.
  fs.mkdirSync(path.join(clone, "node_modules"));
  fs.symlinkSync(path.join(repoRoot, "node_modules/tsx"), path.join(clone, "node_modules/tsx"), "dir");
});
afterAll(() => fs.rmSync(clone, { recursive: true, force: true }));

/** `hr-mock --help` in the clone; `said` resolves at its first line on stderr, or "" if it ends without one. */
function launch() {
  const child = spawn(process.execPath, [path.join(clone, "mock/bin/hr-mock.js"), "--help"], { cwd: clone, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  const said = new Promise<string>((resolve) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      err += chunk;
      if (err.includes("\n")) resolve(err.split("\n")[0]);
    });
    child.once("close", () => resolve(err.split("\n")[0]));
  });
  const exit = new Promise<{ code: number | null; out: string; err: string }>((resolve) => child.once("close", (code) => resolve({ code, out, err })));
  return { said, exit };
}

describe("hr-mock in a clone", () => {
  it("four started at once in a fresh clone: one builds (and says so), three wait, all run the one bundle", async () => {
    fs.writeFileSync(path.join(clone, "hold"), "");
    const launched = [1, 2, 3, 4].map(() => launch());
    // The build ends only once all four have said what they do, so three are sure to find it under way.
    const said = await Promise.all(launched.map((l) => l.said));
    fs.writeFileSync(path.join(clone, "release"), "");
    const results = await Promise.all(launched.map((l) => l.exit));
    fs.rmSync(path.join(clone, "hold"));
    expect(said.sort(), "the line each printed on stderr").toEqual([BUILDING, WAITING, WAITING, WAITING].sort());
    expect(results.map((r) => [r.code, r.out]), `exit codes and output; stderr: ${results.map((r) => r.err).join(" | ")}`).toEqual(Array(4).fill([0, "Usage: hr-mock (stand-in)\n"]));
    expect(builds(), "builds").toBe(1);
    const left = fs.readdirSync(bundles());
    expect(left.filter((name) => name !== "hashes.json"), "one complete bundle, no lock, no half-built folder").toHaveLength(1);
    expect(left.filter((name) => name.includes(".")).sort(), "beside it").toEqual(["hashes.json"]);
  });

  const CASES: Array<[string, { change: () => void; rebuilds: boolean }]> = [
    ["nothing changed", { change: () => {}, rebuilds: false }],
    ["a source touched", { change: () => fs.utimesSync(path.join(clone, "mock/index.ts"), new Date(), new Date(Date.now() + 5_000)), rebuilds: false }],
    ["a source rewritten with the same content", { change: () => fs.writeFileSync(path.join(clone, "mock/index.ts"), fs.readFileSync(path.join(clone, "mock/index.ts"))), rebuilds: false }],
    ["the notices npm run build writes, rewritten", { change: () => fs.writeFileSync(path.join(clone, "mock/THIRD_PARTY_NOTICES"), `written at ${Date.now()}`), rebuilds: false }],
    ["a source edited", { change: () => fs.appendFileSync(path.join(clone, "mock/index.ts"), "\n// edited\n"), rebuilds: true }],
    ["the lock file changed (other dependencies)", { change: () => fs.appendFileSync(path.join(clone, "package-lock.json"), "\n"), rebuilds: true }],
  ];

  it.each(CASES)("then %s", async (_name, { change, rebuilds }) => {
    const before = builds();
    change();
    const { code, out, err } = await launch().exit;
    expect([code, out], `hr-mock --help; stderr: ${err}`).toEqual([0, "Usage: hr-mock (stand-in)\n"]);
    expect({ rebuilt: builds() > before, said: err }, "builds and what it said").toEqual(rebuilds ? { rebuilt: true, said: `${BUILDING}\n` } : { rebuilt: false, said: "" });
  });
});
