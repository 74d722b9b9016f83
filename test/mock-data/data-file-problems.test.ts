// A data file with several mistakes names all of them in one run, in the order they stand in the
// file: what the schema refuses and what only the builder sees (an unknown department) together,
// and a problem that follows from another (a missing departmentId, then no such department) once.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createDataset } from "../../mock/data/dataset.js";
import { DataFileError } from "../../mock/data/data-file.js";
import { dataFileFromObject } from "../../mock/data/check-data-file.js";
import { parseDataFile } from "../../mock/data/read-data-file.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";

const example = readFileSync(join(repoRoot, "examples/data/small-team.yaml"), "utf8");

function edited(...edits: [string, string][]): string {
  let text = example;
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`the example no longer holds ${JSON.stringify(from)}`);
    text = text.replace(from, to);
  }
  return text;
}

/** The lines createDataset refuses the file with (after "bad.yaml"), or [] when it builds. */
function linesOf(load: () => ReturnType<typeof parseDataFile>): string[] {
  try {
    createDataset({ seed: 1, data: load() });
    return [];
  } catch (error) {
    if (!(error instanceof DataFileError)) throw error;
    return error.lines.map((line) => line.replace(/^bad\.yaml|^data/, ""));
  }
}

const LENA_DEPARTMENT = "departmentId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e20";
const UNKNOWN_DEPARTMENT = "departmentId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e2f";

describe("every problem of a data file in one run", () => {
  const cases: [string, { given: string; want: RegExp[] }][] = [
    [
      "a wrong enum value and an unknown department (the schema's and the builder's)",
      {
        given: edited(["workMode: Onsite", "workMode: Mars"], [LENA_DEPARTMENT, UNKNOWN_DEPARTMENT]),
        want: [/^:56:19: \/organisations\/0\/employees\/2\/workMode: must be one of "Remote", "Onsite", "Hybrid"$/, /^:58:23: \/organisations\/0\/employees\/2\/departmentId: .* is not a department of this organisation$/],
      },
    ],
    [
      "told in the file's order, whichever check found them",
      {
        given: edited(["endDate: 2026-03-13", "endDate: 2026-02-13"], ["workMode: Remote", "workMode: Mars"], ["comments: Family trip over the holidays.", "comments: Family trip.\n        salary: 3"]),
        want: [/^:46:19: .*employees\/1\/workMode: must be one of/, /^:88:18: .*leaveRequests\/0\/endDate: 2026-02-13 is before startDate 2026-03-02$/, /^:\d+:\d+: .*leaveRequests\/1\/salary: is not a field of the data file format$/],
      },
    ],
    [
      "a date the schema refuses and a leave request of an unknown employee",
      {
        given: edited(["created: 2022-01-03T09:00:00Z", "created: yesterday"], ["employeeId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e42\n        leaveTypeId", "employeeId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e4f\n        leaveTypeId"]),
        want: [/^:68:18: .*leaveTypes\/0\/created: must match format "date-time"$/, /^:95:21: .*leaveRequests\/1\/employeeId: .* is not an employee of this organisation$/],
      },
    ],
    [
      "a missing departmentId is told once, not again as an unknown department",
      { given: edited([`        ${LENA_DEPARTMENT}\n`, ""], ["endDate: 2026-03-13", "endDate: 2026-02-13"]), want: [/^:\d+:\d+: \/organisations\/0\/employees\/2: must have required property 'departmentId'$/, /^:\d+:\d+: .*leaveRequests\/0\/endDate: 2026-02-13 is before/] },
    ],
    ["a file without a problem builds", { given: example, want: [] }],
  ];
  it.each(cases)("%s", (_, { given, want }) => {
    const lines = linesOf(() => parseDataFile(given, "bad.yaml"));
    expect(lines.length, lines.join("\n")).toBe(want.length);
    lines.forEach((line, i) => expect(line).toMatch(want[i]));
  });

  it("names a third organisation beyond the format's two and still checks the first two", () => {
    const lines = linesOf(() =>
      dataFileFromObject({ organisations: [{ name: "A", employees: [{ firstName: "X", lastName: "Y", departmentId: "0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e2f" }] }, { name: "B" }, { name: "C" }] }),
    );
    // An object given in code is placed by JSON pointer.
    expect(lines).toEqual([
      ":/organisations: /organisations: must NOT have more than 2 items",
      ":/organisations/0/employees/0/departmentId: /organisations/0/employees/0/departmentId: 0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e2f is not a department of this organisation",
    ]);
  });

  it("refuses a file that is not an object with the schema's line alone", () => {
    expect(linesOf(() => parseDataFile("- just\n- a list\n", "bad.yaml"))).toEqual([":1:1: the file: must be object"]);
  });
});
