// A write interrupted at any point never leaves a state the mock cannot read: a child mock writes
// to its state directory without pause and is killed with SIGKILL at varied moments; after each
// kill the state opens, and nothing it had restored before is lost (the data changes only grow,
// the endpoint and its waiting deliveries are there). Bounded: a fixed number of kills.
import { spawn } from "node:child_process";
import { expect, test } from "vitest";
import { startMock } from "../../mock/index.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { bundledEntry } from "../support/bundled-entry.js";
import { newStateDir } from "./support.js";

/** Milliseconds of writing before each kill: varied, and the same on every run. */
const KILL_AFTER_MS = [15, 120, 40, 260];

function runUntilKilled(script: string, state: string, afterMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, state], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk));
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk;
      if (out.includes("\n") && !child.killed) setTimeout(() => child.kill("SIGKILL"), afterMs);
    });
    child.on("exit", (code, signal) => (signal === "SIGKILL" ? resolve(out.split("\n")[0]) : reject(new Error(`the child mock exited (${code}) before it was killed: ${err.trim()}`))));
  });
}

test("killed with SIGKILL while writing, again and again: the state always opens, and nothing restored before is lost", async () => {
  const script = await bundledEntry("test/state/kill-child.ts");
  const state = newStateDir();
  let changes = 0;
  for (const [round, afterMs] of KILL_AFTER_MS.entries()) {
    const ready = await runUntilKilled(script, state, afterMs);
    expect(ready, `round ${round}: the child started on the state the previous kill left`).toMatch(/^ready /);
    const mock = await startMock({ port: 0, seed: 5, scale: 0.1, today: "2026-11-23", state, onError: () => {} });
    const restored = mock.state!.restored;
    await mock.close();
    expect(restored.changes, `round ${round}: data changes only grow`).toBeGreaterThanOrEqual(changes);
    expect(restored.endpoints, `round ${round}: the endpoint is kept`).toBe(1);
    changes = restored.changes;
  }
  expect(changes, "the child wrote data changes between the kills").toBeGreaterThanOrEqual(KILL_AFTER_MS.length);
}, 180_000);
