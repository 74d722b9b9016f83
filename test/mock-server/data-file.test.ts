// Data files (hr-mock serve --data, startMock({ data })): the example file holds what the README
// promises, files follow the published schema, and a bad file is refused with one line per problem
// naming the file, the line and column, the JSON pointer and the rule; nothing starts on it.
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import YAML from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { DataFileError, DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { hrMockArgs } from "../support/hr-mock.js";
import { tempDir } from "../support/temp-dirs.js";

const EXAMPLES = join(repoRoot, "examples/data");
const EXAMPLE = join(EXAMPLES, "small-team.yaml");
const exampleText = readFileSync(EXAMPLE, "utf8");
const tmp = tempDir("hr-data-file-");
const mocks: RunningMock[] = [];
afterAll(() => Promise.all(mocks.map((m) => m.close())));

/** The example with each [from, to] replaced once (the replaced text must be there). */
function exampleWith(...edits: [string, string][]): string {
  let text = exampleText;
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`the example no longer holds ${JSON.stringify(from)}`);
    text = text.replace(from, to);
  }
  return text;
}

const AMARA = "0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e41";
const ANNUAL = "0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e51";

describe("the example data file", () => {
  it("follows generated/data-file.schema.json, as every file under examples/data does", () => {
    const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
    const validate = addFormats(new Ajv2020({ allErrors: true, strict: false })).compile(JSON.parse(readFileSync(join(repoRoot, "generated/data-file.schema.json"), "utf8")));
    const files = readdirSync(EXAMPLES).filter((f) => /\.(ya?ml|json)$/.test(f));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const ok = validate(YAML.parse(readFileSync(join(EXAMPLES, f), "utf8")));
      expect(ok, `${f}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it("gives an employee with no days left, an empty department and a leave type that requires documents", async () => {
    const mock = await startMock({ port: 0, data: EXAMPLE, rateLimit: "off" });
    mocks.push(mock);
    const get = async (path: string) => ((await (await fetch(mock.url + path, { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } })).json()) as { data: any }).data;
    expect(await get(`/v1/leavebalance/get-leave-balance?EmployeeId=${AMARA}&LeaveTypeId=${ANNUAL}`)).toEqual({ totalDays: 10, daysTaken: 10, daysRemaining: 0, leavePending: 0, leaveRejected: 0 });
    const departments = (await get("/v1/department/list")).data as { name: string; membersCount: number; unitsCount: number }[];
    expect(departments.find((d) => d.name === "Research"), "the empty department").toMatchObject({ membersCount: 0, unitsCount: 0 });
    expect(departments.find((d) => d.name === "Engineering"), "members are counted, not typed").toMatchObject({ membersCount: 2, unitsCount: 1 });
    const types = (await get("/v1/leavetype/list")).data as { name: string; requiresDocument: boolean; requiredDocument: unknown[] }[];
    expect(types.find((t) => t.name === "Sick Leave")).toMatchObject({ requiresDocument: true, requiredDocument: [{ name: "Medical certificate" }] });
    const request = await get("/v1/leaverequest/details/0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e61");
    expect(request.days, "working days are computed: 2 March to 13 March 2026 is ten").toBe(10);
    expect(mock.dataset.organizations[1].employees.length, "the second organisation is generated from the seed").toBeGreaterThan(100);
  });

  it("an organisation with only a name gets everything else generated", async () => {
    const mock = await startMock({ port: 0, seed: 3, today: "2026-11-23", data: { organisations: [{ name: "Just A Name" }] } });
    mocks.push(mock);
    const org = mock.dataset.organizations[0];
    expect(org.name).toBe("Just A Name");
    expect(org.employees.length).toBeGreaterThan(100);
    expect(org.leaveRequests.length).toBeGreaterThan(500);
    expect(() => mock.ids, "sample ids exist for a generated organisation").not.toThrow();
  });

  it("departments and a few employees get generated leave types and requests around them", async () => {
    const file = YAML.parse(exampleText);
    delete file.organisations[0].leaveTypes;
    delete file.organisations[0].leaveRequests;
    delete file.organisations[0].balancesSetUp;
    const mock = await startMock({ port: 0, data: file });
    mocks.push(mock);
    const org = mock.dataset.organizations[0];
    expect(org.employees.map((e) => e.firstName)).toEqual(["Amara", "Tomasz", "Lena"]);
    expect(org.leaveTypes.length, "the catalogue's leave types").toBeGreaterThan(3);
    expect(org.leaveRequests.length, "requests of the file's employees").toBeGreaterThan(0);
    expect(org.leaveRequests.every((r) => org.employees.some((e) => e.id === r.employeeId))).toBe(true);
  });
});

// [name, { given: the example's text with edits, want: the lines (after the file name) }]
const BAD_FILES: [string, { given: string; want: RegExp[] }][] = [
  ["a value outside an enum", { given: exampleWith(["workMode: Onsite", "workMode: Mars"]), want: [/^:56:19: \/organisations\/0\/employees\/2\/workMode: must be one of "Remote", "Onsite", "Hybrid"$/] }],
  ["a field the format does not have", { given: exampleWith(["        workMode: Onsite", "        workMode: Onsite\n        salary: 100"]), want: [/^:57:17: \/organisations\/0\/employees\/2\/salary: is not a field of the data file format$/] }],
  ["an id given twice", { given: exampleWith(["id: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e43", "id: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e42"]), want: [/^:51:13: \/organisations\/0\/employees\/2\/id: id 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e42 is given twice \(also at 41:13, .*\); ids must be unique$/] }],
  ["an unknown employee id", { given: exampleWith(["employeeId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e42\n        leaveTypeId", "employeeId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e4f\n        leaveTypeId"]), want: [/^:95:21: \/organisations\/0\/leaveRequests\/1\/employeeId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e4f is not an employee of this organisation$/] }],
  ["an unknown department id", { given: exampleWith(["departmentId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e20", "departmentId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e2f"]), want: [/^:58:23: \/organisations\/0\/employees\/2\/departmentId: .* is not a department of this organisation$/] }],
  ["a date the wrong way round", { given: exampleWith(["endDate: 2026-03-13", "endDate: 2026-02-13"]), want: [/^:88:18: \/organisations\/0\/leaveRequests\/0\/endDate: 2026-02-13 is before startDate 2026-03-02$/] }],
  [
    "a leave type from another organisation",
    {
      given: `${exampleText}  - name: Second Org\n    leaveTypes:\n      - id: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e99\n        name: Gardening Leave\n`.replace(
        `leaveTypeId: ${ANNUAL}\n        startDate: 2026-12-21`,
        "leaveTypeId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e99\n        startDate: 2026-12-21",
      ),
      want: [/^:96:22: \/organisations\/0\/leaveRequests\/1\/leaveTypeId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e99 is a leave type of another organisation$/],
    },
  ],
  ["text that is not YAML", { given: exampleWith(["name: Small Team Ltd", "name: [Small Team Ltd"]), want: [/^:\d+:\d+: not valid YAML or JSON: /] }],
];

describe("a bad data file is refused with one line per problem", () => {
  it.each(BAD_FILES)("%s", async (name, { given, want }) => {
    const path = join(tmp, `${name.replace(/\W+/g, "-")}.yaml`);
    writeFileSync(path, given);
    const error = await startMock({ port: 0, data: path }).then(
      (mock) => (mocks.push(mock), undefined),
      (e: unknown) => e,
    );
    expect(error, "startMock should refuse the file").toBeInstanceOf(DataFileError);
    const lines = (error as DataFileError).lines;
    expect(lines.length, lines.join("\n")).toBe(want.length);
    lines.forEach((line, i) => {
      expect(line.startsWith(path), `each line names the file: ${line}`).toBe(true);
      expect(line.slice(path.length), "the place and the rule").toMatch(want[i]);
    });
  });

  it("lists every problem of the file, not only the first", async () => {
    const path = join(tmp, "three-problems.yaml");
    writeFileSync(path, exampleWith(["departmentId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e20", "departmentId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e2f"], ["endDate: 2026-03-13", "endDate: 2026-02-13"], ["employeeId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e42\n        leaveTypeId", "employeeId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e4f\n        leaveTypeId"]));
    await expect(startMock({ port: 0, data: path })).rejects.toMatchObject({ lines: [expect.stringContaining(":58:23:"), expect.stringContaining(":88:18:"), expect.stringContaining(":95:21:")] });
  });

  it("a JSON file's problems are placed by line and column too", async () => {
    const path = join(tmp, "wrong-dates.json");
    writeFileSync(path, JSON.stringify(YAML.parse(exampleWith(["endDate: 2026-03-13", "endDate: 2026-02-13"])), null, 2));
    await expect(startMock({ port: 0, data: path })).rejects.toMatchObject({
      lines: [`${path}:127:22: /organisations/0/leaveRequests/0/endDate: 2026-02-13 is before startDate 2026-03-02`],
    });
  });

  it("an object given in code is placed by JSON pointer", async () => {
    await expect(startMock({ port: 0, data: { organisations: [{ name: "X", employees: [{ firstName: "A", lastName: "B" }] }] } as never })).rejects.toMatchObject({
      lines: [expect.stringMatching(/^data:\/organisations\/0\/employees\/0: .*departmentId/)],
    });
  });

  it("hr-mock serve exits 1 with those lines and no stack trace", async () => {
    const path = join(tmp, "serve.yaml");
    writeFileSync(path, exampleWith(["endDate: 2026-03-13", "endDate: 2026-02-13"]));
    const result = spawnSync(process.execPath, [...(await hrMockArgs()), "serve", "--port", "0", "--data", path], { encoding: "utf8" });
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout, "nothing started").toBe("");
    expect(result.stderr.trim().split("\n")).toEqual([`hr-mock serve: ${path}:88:18: /organisations/0/leaveRequests/0/endDate: 2026-02-13 is before startDate 2026-03-02`]);
  });
});
