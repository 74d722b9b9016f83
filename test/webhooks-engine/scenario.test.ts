// Scenario files (hr-mock scenario FILE): checked whole before any step runs, one problem per line
// with its place; run in order against a running mock, references to earlier steps' event data
// resolved; stopped at the first refused step with one line naming it; the delivery log shows the
// whole sequence in order.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { scenarioCommand } from "../../mock/cli/commands/scenario.js";
import { startMock, type RunningMock } from "../../mock/index.js";
import { checkScenario } from "../../mock/scenarios/scenario-file.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { register, TestReceiver } from "./support.js";

const EXAMPLE = path.join(repoRoot, "examples/scenarios/leave-approved.yaml");

describe("a bad file is refused before any step runs, one line per problem with its place", () => {
  const cases: Array<[string, { given: string; want: string[] }]> = [
    ["not YAML", { given: "steps: [leave.approved\n", want: [/^f\.yaml:2: not valid YAML or JSON: Flow sequence .* end with a \]$/.source] }],
    ["no steps", { given: "description: nothing\n", want: ["f.yaml:1: steps: is required"] }],
    ["an unknown event type", { given: "steps:\n  - trigger: leave.approved\n  - trigger: leave.granted\n", want: [/^f\.yaml:3: steps\[1\]\.trigger: must be one of approval\.completed, /.source] }],
    ["a negative wait", { given: "steps:\n  - wait: -5\n", want: ["f.yaml:2: steps[0].wait: must be >= 0"] }],
    ["a step that is neither", { given: "steps:\n  - trigger: leave.approved\n    when: later\n", want: ["f.yaml:3: steps[0].when: is not a field here"] }],
    ["a field the type does not take", { given: "steps:\n  - trigger: leave.requested\n    set:\n      days: 3\n", want: ["f.yaml:4: steps[0].set.days: is not a field here"] }],
    ["overrides on a type that takes none", { given: "steps:\n  - trigger: leave.approved\n    set: {comments: x}\n", want: ["f.yaml:3: steps[0].set: this event type takes no overrides"] }],
    ["a reference to no earlier step", { given: "steps:\n  - trigger: leave.approved\n    id: $asked.leaveRequestId\n", want: ["f.yaml:3: steps[0].id: $asked names no earlier step (give a step name: asked)"] }],
    [
      "a reference to a field the event does not carry",
      { given: "steps:\n  - trigger: leave.requested\n    name: asked\n  - trigger: leave.approved\n    id: $asked.startDate\n", want: ["f.yaml:5: steps[1].id: startDate is not a field of a leave.requested event's data; its fields are leaveRequestId, employeeId, leaveTypeId, status"] },
    ],
    ["a name used twice", { given: "steps:\n  - trigger: employee.created\n    name: a\n  - trigger: employee.created\n    name: a\n", want: ["f.yaml:5: steps[1].name: the name a is already taken by an earlier step"] }],
    [
      "every problem, not only the first",
      { given: "steps:\n  - trigger: nope\n  - wait: soon\n", want: [/^f\.yaml:2: steps\[0\]\.trigger: must be one of/.source, "f.yaml:3: steps[1].wait: must be integer"] },
    ],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    const checked = checkScenario(given, "f.yaml");
    expect(checked.ok, "the file is refused").toBe(false);
    if (checked.ok) return;
    expect(checked.problems.length, checked.problems.join("\n")).toBe(want.length);
    checked.problems.forEach((problem, i) => (want[i].startsWith("^") ? expect(problem).toMatch(new RegExp(want[i])) : expect(problem).toBe(want[i])));
  });

  test("JSON is a scenario file too", () => {
    expect(checkScenario(JSON.stringify({ steps: [{ trigger: "payroll.paid" }, { wait: 0 }] }), "f.json")).toMatchObject({ ok: true });
  });

  test("the README's example file is a good scenario", () => {
    const checked = checkScenario(fs.readFileSync(EXAMPLE, "utf8"), EXAMPLE);
    expect(checked.ok ? [] : checked.problems).toEqual([]);
  });
});

describe("running a scenario against a mock", () => {
  let mock: RunningMock;
  let receiver: TestReceiver;
  let dir: string;
  beforeAll(async () => {
    [mock, receiver] = await Promise.all([startMock({ port: 0, today: "2026-11-23", webhooks: { timeScale: 0.0001 } }), new TestReceiver().start()]);
    await register(mock, receiver);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "hr-scenario-"));
  });
  afterAll(async () => {
    await mock?.close();
    await receiver?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  function io() {
    const out: string[] = [];
    const err: string[] = [];
    const waits: number[] = [];
    return { out, err, waits, io: { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) }, wait: async (ms: number) => waits.push(ms) } };
  }
  const file = (name: string, text: string) => {
    const at = path.join(dir, name);
    fs.writeFileSync(at, text);
    return at;
  };

  test("the example runs in order: its waits are kept, references resolved, the delivery log shows the sequence", async () => {
    const run = io();
    const before = new Set((await mock.webhooks.deliveries()).map((d) => d.eventId));
    const code = await scenarioCommand([EXAMPLE, "--mock-url", mock.url], run.io);
    expect(run.err.join(""), "nothing on stderr").toBe("");
    expect(code).toBe(0);
    expect(run.waits).toEqual([200]);
    expect(run.out.join("").match(/^steps\[\d\]: Queued \S+/gm)).toEqual(["steps[0]: Queued employee.created", "steps[1]: Queued leave.requested", "steps[3]: Queued leave.approved"]);
    const log = (await mock.webhooks.deliveries()).filter((d) => !before.has(d.eventId));
    expect(log.map((d) => d.type).reverse(), "the log, oldest first").toEqual(["employee.created", "leave.requested", "leave.approved"]);
    const org = mock.dataset.organizations[0];
    const approved = [...org.leaveRequests].find((r) => r.comments === "Family trip over the holidays." && r.startDate === "2026-12-21")!;
    expect(approved.statusId, "the request the scenario asked for is Approved").toBe(2);
    expect(org.index.employeeById.get(approved.employeeId)).toMatchObject({ fullName: "Amara Okafor", workMode: "Hybrid" });
  });

  test("a refused step stops the run with one line naming the step; the steps before it stay done", async () => {
    const run = io();
    const at = file("twice.yaml", "steps:\n  - trigger: leave.requested\n    name: asked\n  - trigger: leave.approved\n    id: $asked.leaveRequestId\n  - trigger: leave.approved\n    id: $asked.leaveRequestId\n  - trigger: payroll.paid\n");
    const before = (await mock.webhooks.deliveries()).length;
    const code = await scenarioCommand([at, "--mock-url", mock.url], run.io);
    expect(code).toBe(1);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]).toMatch(new RegExp(`^hr-mock scenario: ${at.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:6: steps\\[2\\] \\(leave\\.approved\\) stopped the run: the mock answered 400: Bad request: leave request \\S+ is Approved; .*\\(id\\)\\.\\n$`));
    expect((await mock.webhooks.deliveries()).length - before, "two events delivered, the fourth step never ran").toBe(2);
  });

  test("a bad file sends nothing: exit 2, one line per problem", async () => {
    const run = io();
    const at = file("bad.yaml", "steps:\n  - trigger: leave.requested\n  - trigger: leave.granted\n  - wait: -1\n");
    const version = mock.dataset.version;
    const code = await scenarioCommand([at, "--mock-url", mock.url], run.io);
    expect(code).toBe(2);
    expect(run.err.map((l) => l.replace(at, "F"))).toEqual([expect.stringMatching(/^hr-mock scenario: F:3: steps\[1\]\.trigger: must be one of /), "hr-mock scenario: F:4: steps[2].wait: must be >= 0\n"]);
    expect(mock.dataset.version, "no step ran").toBe(version);
  });

  test.each([
    ["no file", [], /one scenario file is required, got none/],
    ["a missing file", ["/nonexistent/x.yaml"], /cannot read the scenario file \/nonexistent\/x\.yaml \(ENOENT\)/],
    ["an unknown flag", ["x.yaml", "--speed", "2"], /--speed/],
  ])("bad input: %s is one line", async (_name, argv, message) => {
    await expect(scenarioCommand(argv as string[], io().io)).rejects.toThrow(message);
  });
});
