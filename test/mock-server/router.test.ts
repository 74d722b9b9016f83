// The compiled router agrees with Prism's own router on the same parsed operations, and parameter
// checking through Prism's validators gives the handler what Prism validated.
import { createRequire } from "node:module";
import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { checkParams, checkRequest, parseQuery } from "../../mock/server/params.js";
import { compileRouter, type Router } from "../../mock/server/router.js";
import { describeSchema } from "../../mock/server/schema-text.js";
import { loadSpec, type LoadedSpec, type SpecOperation } from "../../mock/server/spec.js";

const require = createRequire(import.meta.url);
const prismRoute = require("@stoplight/prism-http/dist/router/index.js").default as (opts: { resources: unknown[]; input: unknown }) => any;

let spec: LoadedSpec;
let router: Router;
const op = (id: string): SpecOperation => spec.operations.find((o) => o.operationId === id)!;

beforeAll(async () => {
  spec = await loadSpec();
  router = compileRouter(spec.operations);
});

/** Prism's verdict in the router's terms: the operationId, or "unknown-path" / "wrong-method". */
function prismVerdict(method: string, path: string): string {
  const result = prismRoute({ resources: spec.prismOperations, input: { method: method.toLowerCase(), url: { path } } });
  if (result._tag === "Right") return result.right.iid;
  return /does not have .* method/.test(result.left.detail ?? "") ? "wrong-method" : "unknown-path";
}

function ourVerdict(method: string, path: string): string {
  const result = router(method, path);
  return result.kind === "operation" ? result.operation.operationId : result.kind;
}

describe("compileRouter agrees with Prism's router", () => {
  const paths = [
    "/v1/leaverequest/list",
    "/v1/leaverequest/details/0b7e5c3e-8d2f-4c1a-9a57-2f1f0c6b9d11",
    "/v1/leaverequest/details/",
    "/v1/leaverequest/details/a/b",
    "/v1/department/list",
    "/v1/department/6f7a8b9c-0d1e-4f2a-b3c4-d5e6f7a8b9c0",
    "/v1/department/%6c%69%73%74",
    "/v1/department/a%2Fb",
    "/v1/department/%E0%A4%A",
    "/v1/leave%72equest/list",
    "/v1/leaverequest/list/",
    "/v1/employee/list",
    "/v1/leavebalance/get-leave-balance",
    "/v2/leaverequest/list",
    "/",
    "/v1",
  ];
  test.each(paths.flatMap((p) => ["GET", "POST", "HEAD"].map((m) => [m, p])))("%s %s", (method, path) => {
    expect(ourVerdict(method, path)).toBe(prismVerdict(method, path));
  });

  test("on random paths built from the spec's own fragments", () => {
    const fragment = fc.oneof(
      fc.constantFrom("v1", "leaverequest", "list", "details", "department", "leavetype", "employee", "leavebalance", "get-leave-balance", "", "%41", "%zz", "{id}"),
      fc.string({ maxLength: 6 }).map((s) => encodeURIComponent(s)),
    );
    fc.assert(
      fc.property(fc.array(fragment, { minLength: 1, maxLength: 5 }), fc.constantFrom("GET", "PUT", "OPTIONS"), (fragments, method) => {
        const path = `/${fragments.join("/")}`;
        expect(ourVerdict(method, path), path).toBe(prismVerdict(method, path));
      }),
      { seed: 20261015, numRuns: 2000 },
    );
  });

  const nearMisses: [string, { given: string; want: string | undefined }][] = [
    ["a trailing slash", { given: "/v1/leaverequest/list/", want: "/v1/leaverequest/list" }],
    ["upper case", { given: "/V1/LEAVEREQUEST/LIST", want: "/v1/leaverequest/list" }],
    ["mixed case on a templated path keeps the id as given", { given: "/v1/Department/ABC", want: "/v1/department/ABC" }],
    ["a concrete path wins over a templated one", { given: "/v1/Department/List", want: "/v1/department/list" }],
    ["doubled slashes", { given: "//v1//employee/list", want: "/v1/employee/list" }],
    ["a path that is nothing like an operation", { given: "/v2/leaverequest/list", want: undefined }],
    ["the root", { given: "/", want: undefined }],
  ];
  test.each(nearMisses)("an unknown path with %s suggests the operation's path", (_name, { given, want }) => {
    expect(router("GET", given)).toEqual(want === undefined ? { kind: "unknown-path", suggestion: undefined } : { kind: "unknown-path", suggestion: want });
  });

  test("path parameters come out decoded", () => {
    expect(router("GET", "/v1/department/a%20b")).toMatchObject({ kind: "operation", pathParams: { id: "a b" } });
  });
});

describe("checkParams (Prism's validators) and the query the handler sees", () => {
  const cases: [string, { operationId: string; query: string; want: Record<string, unknown> }][] = [
    ["names match without regard to case, under the spec's spelling", { operationId: "listLeaveRequests", query: "pagesize=7", want: { PageSize: "7" } }],
    ["numbers are written canonically", { operationId: "listLeaveRequests", query: "PageSize=+10&PageNumber=02", want: { PageSize: "10", PageNumber: "2" } }],
    ["spaces around a number are forgiven", { operationId: "listLeaveTypes", query: "PageSize=%2010%20", want: { PageSize: "10" } }],
    ["an empty value counts as absent, as in Prism", { operationId: "listLeaveRequests", query: "PageSize=", want: {} }],
    ["the last spelling wins, as in Prism", { operationId: "listLeaveRequests", query: "PageSize=500&pagesize=5", want: { PageSize: "5" } }],
    ["status names stay text, numbers become canonical", { operationId: "listLeaveRequests", query: "LeaveStatus=02", want: { LeaveStatus: "2" } }],
    ["a status name is not a number", { operationId: "listLeaveRequests", query: "LeaveStatus=approved", want: { LeaveStatus: "approved" } }],
    ["a repeated array parameter stays an array", { operationId: "listDepartments", query: `Companies=${uuid(1)}&Companies=${uuid(2)}`, want: { Companies: [uuid(1), uuid(2)] } }],
    ["parameters the spec does not know pass through", { operationId: "listLeaveTypes", query: "Foo=bar", want: { Foo: "bar" } }],
  ];
  test.each(cases)("%s", (_name, { operationId, query, want }) => {
    const result = checkParams(op(operationId), parseQuery(query), {});
    expect(result).toEqual({ ok: true, query: want });
  });

  const failures: [string, { operationId: string; query: string; path?: Record<string, string>; message: string }][] = [
    ["a page size out of range", { operationId: "listLeaveRequests", query: "PageSize=0", message: 'Invalid parameter PageSize: must be an integer from 1 to 100, got "0".' }],
    ["a repeated single parameter", { operationId: "listLeaveRequests", query: "PageSize=1&PageSize=2", message: 'Invalid parameter PageSize: must be an integer from 1 to 100, got 2 values ("1", "2").' }],
    ["a required parameter missing", { operationId: "getLeaveBalance", query: `EmployeeId=${uuid(1)}`, message: "Missing parameter LeaveTypeId: it is required, a uuid." }],
    ["a path id that is not a uuid", { operationId: "getDepartment", query: "", path: { id: "x" }, message: 'Invalid parameter id: must be a uuid, got "x".' }],
    ["an enum miss", { operationId: "listEmployees", query: "Status=Gone", message: 'Invalid parameter Status: must be one of Active, Inactive, Terminated, got "Gone".' }],
    ["a page size in exponent notation", { operationId: "listLeaveRequests", query: "PageSize=1e2", message: 'Invalid parameter PageSize: must be an integer from 1 to 100, written in decimal digits, got "1e2".' }],
    ["a page size in hexadecimal", { operationId: "listDepartments", query: "PageSize=0x10", message: 'Invalid parameter PageSize: must be an integer from 1 to 100, written in decimal digits, got "0x10".' }],
    ["a page number with a decimal point", { operationId: "listEmployees", query: "PageNumber=2.0", message: 'Invalid parameter PageNumber: must be an integer of at least 1, written in decimal digits, got "2.0".' }],
    ["a status number with a decimal point", { operationId: "listLeaveRequests", query: "LeaveStatus=2.0", message: "Invalid parameter LeaveStatus: must be one of Submitted" }],
    ["OrderBy in exponent notation", { operationId: "listDepartments", query: "OrderBy=1e0", message: 'Invalid parameter OrderBy: must be one of 0, 1, written in decimal digits, got "1e0".' }],
    ["too many Companies", { operationId: "listDepartments", query: Array.from({ length: 51 }, (_, i) => `Companies=${uuid(i)}`).join("&"), message: "Invalid parameter Companies: must be at most 50 values" }],
  ];
  test.each(failures)("%s", (_name, { operationId, query, path = {}, message }) => {
    const result = checkParams(op(operationId), parseQuery(query), path);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain(message);
  });

  test("of many values, a message quotes the first three only", () => {
    const result = checkParams(op("listDepartments"), parseQuery(Array.from({ length: 51 }, (_, i) => `Companies=${uuid(i)}`).join("&")), {});
    expect(!result.ok && result.message).toBe(
      `Invalid parameter Companies: must be at most 50 values (repeat the parameter), each a uuid, got 51 values ("${uuid(0)}", "${uuid(1)}", "${uuid(2)}", ...).`,
    );
  });

  test("LeaveStatus says what it accepts, from the spec's anyOf", () => {
    const leaveStatus = op("listLeaveRequests").queryParams.find((p) => p.name === "LeaveStatus")!;
    expect(leaveStatus.expected).toBe(
      "one of Submitted, Pending, Approved, Rejected, Abandoned, Expired, or one of 0, 1, 2, 3, 4, 5, or a status name in another letter case, such as approved",
    );
  });

  test.each([
    [{ type: "boolean" }, "true or false"],
    [{ type: "integer", minimum: 1, maximum: 2147483647 }, "an integer of at least 1"],
    [{ type: "string", format: "date" }, "a date written YYYY-MM-DD"],
    [{ type: "string", maxLength: 200 }, "text of at most 200 characters"],
  ] as const)("describeSchema(%j) is %s", (schema, words) => {
    expect(describeSchema(schema as never)).toBe(words);
  });
});

describe("checkRequest: the query string's encoding, then the parameters", () => {
  // URLSearchParams reads "%ZZ" as the text %ZZ and broken UTF-8 as U+FFFD: a client's encoding
  // bug would pass as a search that finds nothing. The mock names it instead.
  const refused: [string, { operationId: string; search: string; want: string }][] = [
    ["a % without two hex digits", { operationId: "listLeaveRequests", search: "SearchTerm=%ZZ", want: 'Invalid parameter SearchTerm: malformed percent-encoding, got "%ZZ"; write a literal % as %25 and percent-encode text as UTF-8.' }],
    ["a % at the end", { operationId: "listLeaveTypes", search: "PageSize=5&SearchTerm=50%", want: 'Invalid parameter SearchTerm: malformed percent-encoding, got "50%"' }],
    ["escapes that are not UTF-8", { operationId: "listDepartments", search: "SearchTerm=%E2%82", want: 'Invalid parameter SearchTerm: malformed percent-encoding, got "%E2%82"' }],
    ["the name in another letter case", { operationId: "listLeaveRequests", search: "searchterm=%G1", want: "Invalid parameter SearchTerm: malformed percent-encoding" }],
    ["a parameter the spec does not know", { operationId: "listLeaveRequests", search: "%ZZ=1", want: 'Invalid query string: the parameter name "%ZZ" has a malformed percent-encoding' }],
  ];
  test.each(refused)("%s is a 400 naming the parameter", (_name, { operationId, search, want }) => {
    const result = checkRequest(op(operationId), search, {});
    expect(result.ok, `${search} is refused`).toBe(false);
    expect(!result.ok && result.message).toContain(want);
  });

  const accepted: [string, { operationId: string; search: string; want: Record<string, unknown> }][] = [
    ["an encoded %", { operationId: "listLeaveRequests", search: "SearchTerm=50%25", want: { SearchTerm: "50%" } }],
    ["encoded UTF-8 and + for a space", { operationId: "listLeaveRequests", search: "SearchTerm=Jos%C3%A9+M", want: { SearchTerm: "José M" } }],
    ["no query at all", { operationId: "listLeaveRequests", search: "", want: {} }],
  ];
  test.each(accepted)("%s is read as text", (_name, { operationId, search, want }) => {
    expect(checkRequest(op(operationId), search, {})).toEqual({ ok: true, query: want });
  });

  test("an array parameter given as comma-separated values says to repeat it", () => {
    const result = checkRequest(op("listDepartments"), `Companies=${uuid(1)},${uuid(2)}`, {});
    expect(!result.ok && result.message).toMatch(/^Invalid parameter Companies: give one value per Companies parameter and repeat it \(Companies=a&Companies=b\), not values separated by commas; got "/);
  });
});

function uuid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
}
