// The API console's form and samples (scripts/docs/console/): its fields are the spec's parameters,
// read at build time, and the URL, curl command and client call it gives are the request as filled in.
import { describe, expect, test } from "vitest";
import { consoleOperations, type ConsoleOperation } from "../../scripts/docs/console/operations.js";
import { clientCallOf, curlOf, requestUrl, type FieldValues } from "../../scripts/docs/console/requests.js";
import { openapi } from "./site-support.js";

const operations = consoleOperations(openapi);
const byId = (id: string) => operations.find((op) => op.operationId === id)!;
const parameterOf = (ref: any) => (ref.$ref ? openapi.components.parameters[ref.$ref.split("/").pop()] : ref);

describe("the form, from the spec", () => {
  test("every operation of the spec, each field one of its parameters with its example and whether it is required", () => {
    const fromSpec = Object.values<any>(openapi.paths).flatMap((item) =>
      Object.values<any>(item).map((op) => [op.operationId, op.parameters.map(parameterOf).map((p: any) => `${p.name}:${p.in}:${p.required === true}`)]),
    );
    expect(operations.map((op) => [op.operationId, op.fields.map((f) => `${f.name}:${f.in}:${f.required}`)])).toEqual(fromSpec);
  });

  test.each<[string, { given: [string, string]; want: { kind: string; choices?: string[]; example: string } }]>([
    ["an enum reached through anyOf: names, then numbers", { given: ["listLeaveRequests", "LeaveStatus"], want: { kind: "choice", choices: ["Submitted", "Pending", "Approved", "Rejected", "Abandoned", "Expired", "0", "1", "2", "3", "4", "5"], example: "Approved" } }],
    ["an integer enum", { given: ["listDepartments", "OrderBy"], want: { kind: "choice", choices: ["0", "1"], example: "1" } }],
    ["a boolean", { given: ["listLeaveTypes", "IsActive"], want: { kind: "boolean", choices: ["true", "false"], example: "true" } }],
    ["an array, repeated in the query", { given: ["listDepartments", "Companies"], want: { kind: "list", example: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d" } }],
    ["a path id", { given: ["getDepartment", "id"], want: { kind: "text", example: parameterOf(openapi.paths["/v1/department/{id}"].get.parameters[0]).example } }],
  ])("%s", (_name, { given: [operationId, name], want }) => {
    const field = byId(operationId).fields.find((f) => f.name === name)!;
    expect({ kind: field.kind, example: field.example, ...(want.choices ? { choices: field.choices } : {}) }).toEqual(want);
  });

  test("a choice is shown with its x-enum-varnames name", () => {
    expect(byId("listDepartments").fields.find((f) => f.name === "OrderBy")!.choiceLabels).toEqual(["0 (OldestFirst)", "1 (NewestFirst)"]);
  });
});

const BASE = "http://127.0.0.1:4010";
describe.each<[string, { given: { operation: ConsoleOperation; values: FieldValues; key: string }; want: { url: string; curl: string; call: string } }]>([
  [
    "a list with an empty field (not sent), an integer and an enum",
    {
      given: { operation: byId("listEmployees"), values: { Status: "Active", PageSize: "5", PageNumber: "" }, key: "demo_org1_full" },
      want: {
        url: `${BASE}/v1/employee/list?Status=Active&PageSize=5`,
        curl: `curl '${BASE}/v1/employee/list?Status=Active&PageSize=5' \\\n  -H 'Authorization: Bearer demo_org1_full'`,
        call: `const data = await hr.listEmployees({ Status: "Active", PageSize: 5 });`,
      },
    },
  ],
  [
    "a path id, no key",
    {
      given: { operation: byId("getDepartment"), values: { id: "6f7a8b9c-0d1e-4f2a-b3c4-d5e6f7a8b9c0" }, key: "" },
      want: { url: `${BASE}/v1/department/6f7a8b9c-0d1e-4f2a-b3c4-d5e6f7a8b9c0`, curl: `curl '${BASE}/v1/department/6f7a8b9c-0d1e-4f2a-b3c4-d5e6f7a8b9c0'`, call: `const data = await hr.getDepartment("6f7a8b9c-0d1e-4f2a-b3c4-d5e6f7a8b9c0");` },
    },
  ],
  [
    "a list's items repeated, a status by number, a key with a quote",
    {
      given: { operation: byId("listDepartments"), values: { Companies: "a, b", OrderBy: "0" }, key: "it's" },
      want: { url: `${BASE}/v1/department/list?Companies=a&Companies=b&OrderBy=0`, curl: `curl '${BASE}/v1/department/list?Companies=a&Companies=b&OrderBy=0' \\\n  -H 'Authorization: Bearer it'\\''s'`, call: `const data = await hr.listDepartments({ Companies: ["a","b"], OrderBy: 0 });` },
    },
  ],
])("the request as filled in: %s", (_name, { given, want }) => {
  test("its URL", () => expect(requestUrl(given.operation, given.values, BASE)).toBe(want.url));
  test("as curl", () => expect(curlOf(given.operation, given.values, given.key, BASE)).toBe(want.curl));
  test("as a client call, with the key", () => {
    const call = clientCallOf(given.operation, given.values, given.key, BASE);
    expect(call).toContain(want.call);
    expect(call).toContain(`createClient({ baseUrl: "${BASE}", apiKey: ${JSON.stringify(given.key)} })`);
  });
});
