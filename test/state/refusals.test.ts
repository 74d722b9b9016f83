// A state directory the mock cannot use is refused at start with one line naming the file or the
// flag and what to do: never a crash, never a silent reset. A torn journal line (a kill in the
// middle of an append) is the one damage that is expected, and it is dropped.
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { startMock, type StartMockOptions } from "../../mock/index.js";
import { StateError } from "../../mock/state/index.js";
import { newStateDir } from "./support.js";

const BASE = { port: 0, today: "2026-11-23", scale: 0.1, seed: 3, onError: () => {} } satisfies StartMockOptions;

/** A state made by a start with BASE and one leave.approved trigger. */
async function madeState(): Promise<string> {
  const state = newStateDir();
  const mock = await startMock({ ...BASE, state });
  await mock.trigger("leave.approved");
  await mock.close();
  return state;
}

/** The one line startMock refuses with, or "started". */
async function startLine(options: StartMockOptions): Promise<string> {
  try {
    const mock = await startMock(options);
    await mock.close();
    return "started";
  } catch (error) {
    expect(error, "a refusal is a StateError (the CLI prints it as one line)").toBeInstanceOf(StateError);
    const message = (error as Error).message;
    expect(message, "one line").not.toContain("\n");
    return message;
  }
}

describe("a state made from another start dataset is refused, naming the flag", () => {
  const cases: Array<[string, { given: Partial<StartMockOptions>; want: RegExp }]> = [
    ["another seed", { given: { seed: 4 }, want: /another start dataset: --seed 4 \(the state's: 3\); start with the state's flags, or give a new --state directory/ }],
    ["another scale", { given: { scale: 0.2 }, want: /--scale 0.2 \(the state's: 0.1\)/ }],
    ["another today", { given: { today: "2026-11-24" }, want: /--today 2026-11-24 \(the state's: 2026-11-23\)/ }],
    ["a data file the state was not made from", { given: { data: "examples/data/small-team.yaml" }, want: /--data with content hash [0-9a-f]{12} \(the state's: none\)/ }],
  ];
  test.each(cases)("%s", async (_name, { given, want }) => {
    const state = await madeState();
    expect(await startLine({ ...BASE, ...given, state })).toMatch(want);
  });

  test("no today given: the state's today is used, so a state made yesterday opens today", async () => {
    const state = await madeState();
    const mock = await startMock({ ...BASE, today: undefined, state });
    expect(mock.dataset.today).toBe("2026-11-23");
    expect(mock.state?.restored.changes).toBe(1);
    await mock.close();
  });
});

describe("a damaged or foreign state directory is refused with one line", () => {
  const world = (state: string, file: string) => join(state, "worlds", "default", file);
  const cases: Array<[string, { damage: (state: string) => void; want: RegExp }]> = [
    ["state.json is not JSON", { damage: (s) => writeFileSync(join(s, "state.json"), "{"), want: /state\.json is not JSON; .*move it away/ }],
    ["state.json of another format", { damage: (s) => writeFileSync(join(s, "state.json"), '{"format":"x"}'), want: /is not of the format hr-mock-state\/1/ }],
    ["a journal line in the middle is garbage", { damage: (s) => writeFileSync(world(s, "changes.jsonl"), `nonsense\n${readFileSync(world(s, "changes.jsonl"), "utf8")}`), want: /changes\.jsonl line 1 is not a data change \(not JSON\)/ }],
    ["a journal change that no longer applies", { damage: (s) => appendFileSync(world(s, "changes.jsonl"), '{"organizationId":"x","input":{"type":"leave.approved"},"at":"2026-11-23T00:00:00Z"}\n'), want: /the data changes do not replay \(change 2 names organisation x/ }],
    ["webhooks.json is cut short", { damage: (s) => writeFileSync(world(s, "webhooks.json"), '{"format":1,"endp'), want: /webhooks\.json is not a webhook state \(not JSON\)/ }],
    ["webhooks.json with a log entry that is not a delivery", { damage: (s) => writeFileSync(world(s, "webhooks.json"), '{"format":1,"endpoints":[],"log":[{"eventId":1}],"waiting":[]}'), want: /webhooks\.json is not a webhook state \(log\[0\]: / }],
    ["state.json is empty", { damage: (s) => writeFileSync(join(s, "state.json"), ""), want: /state\.json is not JSON/ }],
  ];
  test.each(cases)("%s", async (_name, { damage, want }) => {
    const state = await madeState();
    damage(state);
    expect(await startLine({ ...BASE, state })).toMatch(want);
  });

  test("a directory of other files", async () => {
    const state = newStateDir();
    mkdirSync(state);
    writeFileSync(join(state, "notes.txt"), "mine");
    expect(await startLine({ ...BASE, state })).toMatch(/not an hr-mock state directory \(it has files but no state\.json\); give a new or empty directory/);
  });

  test("a file, not a directory", async () => {
    const state = newStateDir();
    writeFileSync(state, "");
    expect(await startLine({ ...BASE, state })).toMatch(/: not a directory; give a new or empty directory/);
  });
});

test("a torn last journal line (a write the process never finished) is dropped and cut off", async () => {
  const state = await madeState();
  const journal = join(state, "worlds", "default", "changes.jsonl");
  const whole = readFileSync(journal, "utf8");
  appendFileSync(journal, '{"organizationId":"');
  const mock = await startMock({ ...BASE, state });
  expect(mock.state?.restored.changes).toBe(1);
  await mock.trigger("leave.approved");
  await mock.close();
  const lines = readFileSync(journal, "utf8").split("\n");
  expect(lines[0], "the complete line stays").toBe(whole.trimEnd());
  expect(lines.slice(1, -1).map((l) => JSON.parse(l).input.type), "the next append starts on a line of its own").toEqual(["leave.approved"]);
});

describe("without a state directory, stopping lists the deliveries that will not be sent", () => {
  const cases: Array<[string, { log: boolean }]> = [
    ["without a log of attempts", { log: false }],
    ["with a log of attempts", { log: true }],
  ];
  test.each(cases)("%s", async (_name, { log }) => {
    const lines: string[] = [];
    // A port nobody listens on: the first attempt fails and the delivery waits for its retry.
    const mock = await startMock({ ...BASE, onError: (l) => lines.push(l), webhooks: log ? { log: (l) => lines.push(l) } : {} });
    await mock.webhooks.addEndpoint({ url: "http://127.0.0.1:9/hooks" });
    const attempted = new Promise<void>((resolve) => mock.webhooks.onAttempt(() => resolve()));
    const { event } = await mock.trigger("payroll.paid");
    await attempted;
    await mock.close();
    expect(lines.join("\n")).toMatch(new RegExp(`1 delivery was still waiting and will not be sent:\\n  payroll.paid ${event.id} -> http://127.0.0.1:9/hooks`));
  });
});

describe("one mock per state directory", () => {
  test("a second mock on the same directory is refused while the first runs, and opens once it stopped", async () => {
    const state = newStateDir();
    const first = await startMock({ ...BASE, state });
    expect(await startLine({ ...BASE, state })).toMatch(/is in use by another running mock in this process; stop it first, or give another --state directory/);
    await first.close();
    expect(await startLine({ ...BASE, state })).toBe("started");
  });

  const cases: Array<[string, { holder: () => number; want: RegExp | "started" }]> = [
    ["a lock held by a running process is refused", { holder: () => process.ppid, want: /is in use by another running mock \(process \d+\)/ }],
    ["a lock left by a killed process is taken over", { holder: () => spawnSync(process.execPath, ["-e", ""]).pid, want: "started" }],
  ];
  test.each(cases)("%s", async (_name, { holder, want }) => {
    const state = await madeState();
    writeFileSync(join(state, "lock"), String(holder()));
    const line = await startLine({ ...BASE, state });
    if (want === "started") expect(line).toBe(want);
    else expect(line).toMatch(want);
  });
});
