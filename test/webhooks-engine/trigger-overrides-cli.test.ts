// `hr-mock trigger --set field=value --data JSON`: the overrides of the control API's trigger body,
// checked where they come in (one line, exit 2: the flag's words), the mock's refusal one line (exit 1),
// and `--help` lists the fields each type takes, from the control document.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { triggerOverrideFields } from "../../generated/control-facts.js";
import { triggerCommand, TRIGGER_HELP } from "../../mock/cli/commands/trigger.js";
import { startMock, type RunningMock } from "../../mock/index.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, today: "2026-11-23" });
});
afterAll(() => mock?.close());

function sink() {
  const lines: string[] = [];
  return { lines, write: (text: string) => lines.push(text) };
}

describe("hr-mock trigger with overrides", () => {
  test("--set and --data make the record: the event and the dataset show them", async () => {
    const stdout = sink();
    const code = await triggerCommand(["employee.created", "--set", "firstName=Ines", "--set", "lastName=Moreau", "--data", '{"workMode":"Onsite","jobRoles":["Recruiter"]}', "--json", "--mock-url", mock.url], { stdout });
    expect(code).toBe(0);
    const result = JSON.parse(stdout.lines.join(""));
    expect(mock.dataset.organizations[0].index.employeeById.get(result.event.data.employeeId)).toMatchObject({ fullName: "Ines Moreau", workMode: "Onsite", jobRoles: ["Recruiter"] });
  });

  test("--set wins over the same field of --data", async () => {
    const stdout = sink();
    expect(await triggerCommand(["candidate.stage_changed", "--data", '{"stage":"Screening"}', "--set", "stage=Offer", "--json", "--mock-url", mock.url], { stdout })).toBe(0);
    expect(JSON.parse(stdout.lines.join("")).event.data.stage).toBe("Offer");
  });

  test("the mock's refusal is one line on stderr, exit 1", async () => {
    const stderr = sink();
    const code = await triggerCommand(["leave.requested", "--set", "startDate=2027-01-12T00:00:00", "--set", "endDate=2027-01-11T00:00:00", "--mock-url", mock.url], { stdout: sink(), stderr });
    expect(code).toBe(1);
    expect(stderr.lines).toEqual([expect.stringMatching(/^hr-mock trigger: the mock answered 400: Bad request: endDate 2027-01-11T00:00:00 is before startDate 2027-01-12T00:00:00 \(set\.endDate\)\.\n$/)]);
  });

  const bad: Array<[string, { given: string[]; want: RegExp }]> = [
    ["a field the type does not take", { given: ["leave.requested", "--set", "days=3"], want: /^--set days: leave\.requested takes only leaveTypeId, startDate, endDate, comments \(see hr-mock trigger --help\)$/ }],
    ["overrides for a type that takes none", { given: ["leave.approved", "--set", "comments=x"], want: /^--set comments: leave\.approved takes no overrides \(see hr-mock trigger --help\)$/ }],
    ["--set without =", { given: ["leave.requested", "--set", "comments"], want: /^--set must be field=value, got "comments" \(see hr-mock trigger --help\)$/ }],
    ["--data that is not JSON", { given: ["leave.requested", "--data", "{comments:"], want: /^--data must be a JSON object, got "\{comments:" \(/ }],
    ["--data that is not an object", { given: ["leave.requested", "--data", "[1]"], want: /^--data must be a JSON object, got "\[1\]" \(see hr-mock trigger --help\)$/ }],
    ["a value the document does not allow", { given: ["employee.created", "--set", "workMode=Moon"], want: /^--set workMode must be equal to one of the allowed values/ }],
    ["a field of --data the type does not take", { given: ["leave.requested", "--data", '{"days":3}'], want: /^--set days is not a field here; the fields are leaveTypeId, startDate, endDate, comments \(see hr-mock trigger --help\)$/ }],
  ];
  test.each(bad)("bad input: %s is one line, before anything is sent", async (_name, { given, want }) => {
    const version = mock.dataset.version;
    await expect(triggerCommand([...given, "--mock-url", mock.url], { stdout: sink(), stderr: sink() })).rejects.toThrow(want);
    expect(mock.dataset.version).toBe(version);
  });

  test("--help lists, per event type, the fields --set takes, as the control document says", () => {
    for (const [type, fields] of Object.entries(triggerOverrideFields)) {
      if (fields.length > 0) expect(TRIGGER_HELP, type).toMatch(new RegExp(`  ${type.replace(".", "\\.")} .*\\n +--set ${fields.join(", ")}\\n`));
    }
    expect(TRIGGER_HELP).toContain("hr-mock scenario");
  });
});
