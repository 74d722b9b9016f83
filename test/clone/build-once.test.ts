// A folder built once per key (scripts/lib/build-once.mjs), as the launcher builds its development
// bundle: callers at the same time, in one process or several, get one build and the same folder;
// a half-built folder is never seen under the key's name and never left behind, a failed build
// leaves nothing, and a builder that died leaves a lock the next caller takes over (callers that
// take it over together, or a builder that finds the folder another completed, all end well).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildOnce } from "../../scripts/lib/build-once.mjs";

const CHILD = path.join(import.meta.dirname, "build-once-child.mjs");
let parent: string;

beforeEach(() => {
  parent = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "build-once-")), "bundles");
  fs.mkdirSync(parent);
});
afterEach(() => fs.rmSync(path.dirname(parent), { recursive: true, force: true }));

/** A build whose end the test decides, counting how often it ran. */
function controlledBuild() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const state = { builds: 0, finish, running };
  const build = async (folder: string) => {
    state.builds++;
    fs.writeFileSync(path.join(folder, "part-1"), "1");
    started();
    await done;
    fs.writeFileSync(path.join(folder, "part-2"), "2");
  };
  return { state, build };
}

describe("in one process", () => {
  it("four callers at once: one build, the others wait for it and get the complete folder", async () => {
    const { state, build } = controlledBuild();
    const events: string[] = [];
    const calls = [1, 2, 3, 4].map((n) => buildOnce({ parent, key: "k1", build, pollMs: 5, onBuild: () => events.push(`build ${n}`), onWait: () => events.push(`wait ${n}`) }));
    await state.running;
    expect(fs.existsSync(path.join(parent, "k1")), "the key's folder while the build runs").toBe(false);
    state.finish();
    const folders = await Promise.all(calls);
    expect(new Set(folders), "every caller's folder").toEqual(new Set([path.join(parent, "k1")]));
    expect(state.builds, "builds").toBe(1);
    expect(events.filter((e) => e.startsWith("build")), "callers that said they build").toHaveLength(1);
    expect(events.filter((e) => e.startsWith("wait")), "callers that said they wait").toHaveLength(3);
    expect(fs.readdirSync(path.join(parent, "k1")).sort(), "the folder is complete").toEqual(["part-1", "part-2"]);
    expect(fs.readdirSync(parent), "nothing but the folder is left").toEqual(["k1"]);
  });

  it("an existing folder is used as it is, and nothing is built", async () => {
    fs.mkdirSync(path.join(parent, "k1"));
    const { state, build } = controlledBuild();
    expect(await buildOnce({ parent, key: "k1", build })).toBe(path.join(parent, "k1"));
    expect(state.builds).toBe(0);
  });

  it("a failed build leaves nothing, its error reaches the caller, and the next caller builds", async () => {
    const failing = buildOnce({
      parent,
      key: "k1",
      build: async (folder) => {
        fs.writeFileSync(path.join(folder, "half"), "");
        throw new Error("the compiler failed");
      },
    });
    await expect(failing).rejects.toThrow("the compiler failed");
    expect(fs.readdirSync(parent), "what a failed build left").toEqual([]);
    const { state, build } = controlledBuild();
    state.finish();
    await buildOnce({ parent, key: "k1", build });
    expect(state.builds, "builds after the failure").toBe(1);
  });

  it("a lock and a half-built folder of a process that is gone are taken over and removed", async () => {
    const gone = await deadPid();
    fs.writeFileSync(path.join(parent, "k1.lock"), `${gone}\n`);
    fs.mkdirSync(path.join(parent, `k1.building-${gone}-abc`));
    const { state, build } = controlledBuild();
    state.finish();
    await buildOnce({ parent, key: "k1", build, pollMs: 5 });
    expect(state.builds).toBe(1);
    expect(fs.readdirSync(parent), "the dead builder's leftovers").toEqual(["k1"]);
  });

  // Two processes that took over the same stale lock at once both build: each must end well.
  it("a builder that finds the key's folder completed by another when it finishes uses that one, and leaves nothing of its own", async () => {
    const folder = await buildOnce({
      parent,
      key: "k1",
      build: async (into) => {
        fs.writeFileSync(path.join(into, "mine"), "");
        fs.mkdirSync(path.join(parent, "k1"));
        fs.writeFileSync(path.join(parent, "k1", "theirs"), "");
      },
    });
    expect(folder).toBe(path.join(parent, "k1"));
    expect(fs.readdirSync(folder), "the folder used: the one that was complete first").toEqual(["theirs"]);
    expect(fs.readdirSync(parent), "left beside it (its own half, its lock)").toEqual(["k1"]);
  });

  it("a lock another process took over during a long build is left to it", async () => {
    const lock = path.join(parent, "k1.lock");
    // The test's parent process runs: its lock is not stale.
    const other = `${process.ppid}\n`;
    await buildOnce({ parent, key: "k1", build: async () => fs.writeFileSync(lock, other) });
    expect(fs.existsSync(lock) && fs.readFileSync(lock, "utf8"), "the other process's lock, after this build").toBe(other);
  });

  it("keeps the newest `keep` folders after a build, and removes older ones", async () => {
    for (const [i, key] of ["old1", "old2"].entries()) {
      fs.mkdirSync(path.join(parent, key));
      fs.utimesSync(path.join(parent, key), 1000 + i, 1000 + i);
    }
    const { state, build } = controlledBuild();
    state.finish();
    await buildOnce({ parent, key: "new", build, keep: 2 });
    expect(fs.readdirSync(parent).sort()).toEqual(["new", "old2"]);
  });

  it("refuses a key that could name another file", async () => {
    const { build } = controlledBuild();
    await expect(buildOnce({ parent, key: "../x", build })).rejects.toThrow(/key "\.\.\/x"/);
  });
});

/** The pid of a process that has exited. */
function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "0"]);
  return new Promise((resolve) => child.once("exit", () => resolve(child.pid!)));
}

/** A child asking for `key` (build-once-child.mjs); `said` resolves at its first line on stderr ("building" or "waiting"). */
function askingChild(key: string) {
  const child = spawn(process.execPath, [CHILD, parent, key, path.join(path.dirname(parent), "builds.log")], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  const said = new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      err += chunk;
      if (err.includes("\n")) resolve(err.split("\n")[0]);
    });
    child.once("exit", (code) => reject(new Error(`a child exited (${code}) before saying whether it builds or waits: ${err.trim()}`)));
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((resolve) => child.once("close", (code, signal) => resolve({ code, signal, out, err })));
  return { child, said, exit };
}

const release = () => fs.writeFileSync(path.join(path.dirname(parent), "release"), "");

describe("across processes", () => {
  it("four processes at once: one builds, three wait, all use the same complete folder", async () => {
    const children = [1, 2, 3, 4].map(() => askingChild("k1"));
    // The build ends only once every process has said what it does, so three are sure to wait.
    const said = await Promise.all(children.map((c) => c.said));
    release();
    const results = await Promise.all(children.map((c) => c.exit));
    expect(said.sort(), "what each said").toEqual(["building", "waiting", "waiting", "waiting"]);
    expect(results.map((r) => r.code), `exit codes; stderr: ${results.map((r) => r.err).join(" | ")}`).toEqual([0, 0, 0, 0]);
    expect(new Set(results.map((r) => r.out.trim())), "the folder each used").toEqual(new Set([`${path.join(parent, "k1")} complete`]));
    expect(fs.readFileSync(path.join(path.dirname(parent), "builds.log"), "utf8").trim().split("\n"), "builds, by pid").toHaveLength(1);
    expect(fs.readdirSync(parent), "what is left").toEqual(["k1"]);
  });

  it("four processes at once on a lock left by a builder that died: all end well with the same complete folder", async () => {
    fs.writeFileSync(path.join(parent, "k1.lock"), `${await deadPid()}\n`);
    const children = [1, 2, 3, 4].map(() => askingChild("k1"));
    const said = await Promise.all(children.map((c) => c.said));
    release();
    const results = await Promise.all(children.map((c) => c.exit));
    expect(said.filter((s) => s === "building").length, `what each said: ${said.join(", ")}`).toBeGreaterThanOrEqual(1);
    expect(results.map((r) => r.code), `exit codes; stderr: ${results.map((r) => r.err).join(" | ")}`).toEqual([0, 0, 0, 0]);
    expect(new Set(results.map((r) => r.out.trim())), "the folder each used").toEqual(new Set([`${path.join(parent, "k1")} complete`]));
    expect(fs.readdirSync(parent), "what is left").toEqual(["k1"]);
  });

  it("a builder stopped by SIGINT removes its half-built folder and its lock", async () => {
    const builder = askingChild("k1");
    expect(await builder.said).toBe("building");
    builder.child.kill("SIGINT");
    expect((await builder.exit).signal, "how the builder ended").toBe("SIGINT");
    expect(fs.readdirSync(parent), "what the stopped builder left").toEqual([]);
  });
});
