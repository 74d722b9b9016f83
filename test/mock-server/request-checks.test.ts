// One request through the dispatcher in-process (Prism's public pipeline, then the dataset's mock
// component), as plain objects: routing and HEAD, what Prism's parameter validation refuses and how
// the refusal reads, and the query the handler then sees.
import { beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY } from "../../mock/keys/demo-keys.js";
import type { ResourceHandlers, ResourceRequest } from "../../mock/operations/read/contract.js";
import { handlers, readOperations } from "../../mock/operations/read/index.js";
import type { Dispatcher } from "../../mock/pipeline/dispatch.js";
import { describeSchema } from "../../mock/kernel/schema-text.js";
import { loadSpec, type LoadedSpec } from "../../mock/kernel/spec.js";
import { freshDataset } from "../mock-data/fixture.js";
import { testDispatcher } from "./dispatcher.js";

/** The dataset the dispatcher answers from (freshDataset is the same for the same seed): its ids. */
const dataset = freshDataset();
let spec: LoadedSpec;
let dispatch: Dispatcher;
/** The last request a handler received. */
let seen: ResourceRequest | undefined;

beforeAll(async () => {
  spec = await loadSpec();
  const spying = Object.fromEntries(
    Object.entries(handlers).map(([id, handler]) => [id, (ds: never, request: ResourceRequest) => ((seen = request), (handler as unknown as (d: never, r: ResourceRequest) => unknown)(ds, request))]),
  ) as unknown as ResourceHandlers;
  // No response cache (testDispatcher's): every request goes through Prism, as a first request does.
  dispatch = await testDispatcher({ spec, table: readOperations(spying) });
});

async function get(url: string, headers: Record<string, string | string[]> = { authorization: `Bearer ${DEMO_KEY.org1Full}` }, method = "GET") {
  seen = undefined;
  const reply = await dispatch({ method, url, headers });
  const text = String(reply.body);
  return { ...reply, text, json: text === "" ? undefined : JSON.parse(text) };
}

describe("routing by Prism, HEAD as GET", () => {
  test("HEAD on a GET route answers the GET's status and length without a body", async () => {
    const got = await get("/v1/leavetype/list?PageSize=3");
    const head = await get("/v1/leavetype/list?PageSize=3", undefined, "HEAD");
    expect(head.status).toBe(200);
    expect(head.text, "HEAD has no body").toBe("");
    expect(head.headers?.["Content-Length"], "HEAD says the GET's length").toBe(Buffer.byteLength(got.text));
  });

  test.each(spec_getPaths())("HEAD %s answers as GET does", async (path) => {
    const [got, head] = [await get(path), await get(path, undefined, "HEAD")];
    expect(head.status, `${path}: HEAD status`).toBe(got.status);
  });

  test("a method the path lacks is the spec's 405 naming the methods it has, HEAD with GET", async () => {
    const answer = await get("/v1/department/list", undefined, "PUT");
    expect(answer.status).toBe(405);
    expect(answer.headers?.Allow).toBe("GET, HEAD");
    expect(answer.json.message).toBe("Method not allowed: PUT is not an operation of /v1/department/list; it answers GET, HEAD.");
  });

  const nearMisses: [string, { given: string; want: string }][] = [
    ["a trailing slash", { given: "/v1/leaverequest/list/", want: "did you mean /v1/leaverequest/list?" }],
    ["upper case", { given: "/V1/LEAVEREQUEST/LIST", want: "did you mean /v1/leaverequest/list?" }],
    ["mixed case on a templated path keeps the id as given", { given: "/v1/Department/ABC", want: "did you mean /v1/department/ABC?" }],
    ["doubled slashes", { given: "//v1//employee/list", want: "did you mean /v1/employee/list?" }],
    ["a path that is nothing like an operation", { given: "/v2/leaverequest/list", want: "the API reference is at /docs" }],
  ];
  test.each(nearMisses)("an unknown path with %s is a 404 that says what was meant", async (_name, { given, want }) => {
    const answer = await get(given);
    expect(answer.status).toBe(404);
    expect(answer.json.message).toContain(want);
  });

  test("path parameters reach the handler decoded", async () => {
    await get("/v1/department/a%20b");
    expect(seen, "an id that is not a uuid never reaches the handler").toBeUndefined();
    const id = dataset.organizations[0].departments[0].id;
    await get(`/v1/department/${encodeURIComponent(id)}`);
    expect(seen?.path).toEqual({ id });
  });

  test("a malformed escape in the path is read as text (then refused as an id), not a crash", async () => {
    const answer = await get("/v1/department/%E0%A4%A");
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe('Invalid parameter id: must be a uuid, got "%E0%A4%A".');
  });
});

describe("the query the handler sees", () => {
  const cases: [string, { url: string; want: Record<string, unknown> }][] = [
    ["names match without regard to case, under the spec's spelling", { url: "/v1/leaverequest/list?pagesize=7", want: { PageSize: 7 } }],
    ["an empty value counts as absent (the default), as in Prism", { url: "/v1/leaverequest/list?PageSize=", want: {} }],
    ["a status name is not a number", { url: "/v1/leaverequest/list?LeaveStatus=Approved", want: { LeaveStatus: "Approved" } }],
    ["a repeated array parameter stays an array", { url: `/v1/department/list?Companies=${uuid(1)}&Companies=${uuid(2)}`, want: { Companies: [uuid(1), uuid(2)] } }],
    ["parameters the spec does not know are not passed on", { url: "/v1/leavetype/list?Foo=bar", want: {} }],
    ["an encoded %", { url: "/v1/leaverequest/list?SearchTerm=50%25", want: { SearchTerm: "50%" } }],
    ["encoded UTF-8 and + for a space", { url: "/v1/leaverequest/list?SearchTerm=Jos%C3%A9+M", want: { SearchTerm: "José M" } }],
  ];
  test.each(cases)("%s", async (_name, { url, want }) => {
    const answer = await get(url);
    expect(answer.status, answer.text).toBe(200);
    expect(seen?.query).toEqual({ ...defaults(url), ...want });
  });
});

describe("refusals: Prism's findings in one sentence per parameter", () => {
  const failures: [string, { url: string; message: string }][] = [
    ["a page size out of range", { url: "/v1/leaverequest/list?PageSize=0", message: 'Invalid parameter PageSize: must be an integer from 1 to 100, got "0".' }],
    ["a repeated single parameter", { url: "/v1/leaverequest/list?PageSize=1&PageSize=2", message: 'Invalid parameter PageSize: must be an integer from 1 to 100, got 2 values ("1", "2").' }],
    ["a required parameter missing", { url: `/v1/leavebalance/get-leave-balance?EmployeeId=${uuid(1)}`, message: "Missing parameter LeaveTypeId: it is required, a uuid." }],
    ["a path id that is not a uuid", { url: "/v1/department/x", message: 'Invalid parameter id: must be a uuid, got "x".' }],
    ["an enum miss", { url: "/v1/employee/list?Status=Gone", message: 'Invalid parameter Status: must be one of Active, Inactive, Terminated, got "Gone".' }],
    ["a status number with a decimal point", { url: "/v1/leaverequest/list?LeaveStatus=2.0", message: "Invalid parameter LeaveStatus: must be one of Submitted" }],
    ["too many Companies", { url: `/v1/department/list?${Array.from({ length: 51 }, (_, i) => `Companies=${uuid(i)}`).join("&")}`, message: `Invalid parameter Companies: must be at most 50 values (repeat the parameter), each a uuid, got 51 values ("${uuid(0)}", "${uuid(1)}", "${uuid(2)}", ...).` }],
    ["an array parameter given as comma-separated values", { url: `/v1/department/list?Companies=${uuid(1)},${uuid(2)}`, message: "Invalid parameter Companies: give one value per Companies parameter and repeat it (Companies=a&Companies=b), not values separated by commas; got" }],
    ["a % without two hex digits", { url: "/v1/leaverequest/list?SearchTerm=%ZZ", message: 'Invalid parameter SearchTerm: malformed percent-encoding, got "%ZZ"; write a literal % as %25 and percent-encode text as UTF-8.' }],
    ["a % at the end", { url: "/v1/leavetype/list?PageSize=5&SearchTerm=50%", message: 'Invalid parameter SearchTerm: malformed percent-encoding, got "50%"' }],
    ["escapes that are not UTF-8", { url: "/v1/department/list?SearchTerm=%E2%82", message: 'Invalid parameter SearchTerm: malformed percent-encoding, got "%E2%82"' }],
    ["the name in another letter case", { url: "/v1/leaverequest/list?searchterm=%G1", message: "Invalid parameter SearchTerm: malformed percent-encoding" }],
    ["a malformed parameter name the spec does not know", { url: "/v1/leaverequest/list?%ZZ=1", message: 'Invalid query string: the parameter name "%ZZ" has a malformed percent-encoding' }],
  ];
  test.each(failures)("%s", async (_name, { url, message }) => {
    const answer = await get(url);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json.message).toContain(message);
    expect(seen, "a refused request never reaches the handler").toBeUndefined();
  });
});

describe("rules the spec states, refused before any handler runs (they were the handlers' own checks)", () => {
  const company = () => dataset.organizations[0].companies[0].id;
  const refused: [string, { url: () => string; mentions: string[] }][] = [
    ["StartDate not a date", { url: () => "/v1/leaverequest/list?StartDate=2026-02-30&EndDate=2026-03-01", mentions: ["StartDate", "YYYY-MM-DD", '"2026-02-30"'] }],
    ["LeaveStatus unknown name", { url: () => "/v1/leaverequest/list?LeaveStatus=Cancelled", mentions: ["LeaveStatus", "Cancelled"] }],
    ["LeaveStatus number out of range", { url: () => "/v1/leaverequest/list?LeaveStatus=6", mentions: ["LeaveStatus", "0, 1, 2, 3, 4, 5"] }],
    ["PageSize above the largest", { url: () => "/v1/leaverequest/list?PageSize=101", mentions: ["PageSize", "100"] }],
    ["PageSize 0", { url: () => "/v1/department/list?PageSize=0", mentions: ["PageSize"] }],
    ["PageNumber 0", { url: () => "/v1/leavetype/list?PageNumber=0", mentions: ["PageNumber"] }],
    ["PageNumber not a number", { url: () => "/v1/employee/list?PageNumber=two", mentions: ["PageNumber", "two"] }],
    ["OrderBy 2", { url: () => "/v1/department/list?OrderBy=2", mentions: ["OrderBy"] }],
    ["CompanyId not a uuid", { url: () => "/v1/leaverequest/list?CompanyId=acme", mentions: ["CompanyId", "uuid"] }],
    ["CompanyId as a uuid URN", { url: () => `/v1/leaverequest/list?CompanyId=urn:uuid:${company()}`, mentions: ["CompanyId", "uuid"] }],
    ["Companies with a bad value", { url: () => "/v1/department/list?Companies=not-a-uuid", mentions: ["Companies", "uuid"] }],
    ["IsActive not a boolean", { url: () => "/v1/leavetype/list?IsActive=yes", mentions: ["IsActive", "true or false"] }],
    ["IsActive in capitals", { url: () => "/v1/leavetype/list?IsActive=TRUE", mentions: ["IsActive", "true or false"] }],
    ["EligibilityCriteria 5", { url: () => "/v1/leavetype/list?EligibilityCriteria=5", mentions: ["EligibilityCriteria"] }],
    ["Status unknown", { url: () => "/v1/employee/list?Status=Retired", mentions: ["Status", "Retired"] }],
    ["Status in another letter case (only LeaveStatus is marked x-case-insensitive)", { url: () => "/v1/employee/list?Status=active", mentions: ["Status", "Active, Inactive, Terminated"] }],
    ["balance without EmployeeId", { url: () => `/v1/leavebalance/get-leave-balance?LeaveTypeId=${uuid(1)}`, mentions: ["EmployeeId", "required"] }],
    ["leave request id not a uuid", { url: () => "/v1/leaverequest/details/42", mentions: ["id", "uuid"] }],
  ];
  test.each(refused)("%s is a 400 naming the parameter", async (_name, { url, mentions }) => {
    const answer = await get(url());
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json.message).toMatch(new RegExp(`^(Invalid|Missing) parameter ${mentions[0]}: `));
    for (const word of mentions) expect(answer.json.message, `names ${word}`).toContain(word);
    expect(seen, "never reaches the handler").toBeUndefined();
  });
});

describe("typed, defaulted parameters reach the handler", () => {
  test("defaults come from the spec and numbers arrive as numbers", async () => {
    await get("/v1/leaverequest/list?PageNumber=2");
    expect(seen?.query).toEqual({ PageNumber: 2, PageSize: 25, OrderBy: 1 });
  });

  test.each([
    ["approved", "Approved"],
    ["APPROVED", "Approved"],
    ["sUbMiTtEd", "Submitted"],
    ["Expired", "Expired"],
    ["2", 2],
    ["0", 0],
  ] as const)("LeaveStatus=%s arrives as %j (names in any letter case: the spec's x-case-insensitive)", async (given, want) => {
    const answer = await get(`/v1/leaverequest/list?LeaveStatus=${given}`);
    expect(answer.status, answer.text).toBe(200);
    expect((seen?.query as Record<string, unknown>).LeaveStatus).toBe(want);
  });

  test("a uuid in capitals arrives in the dataset's lower case", async () => {
    const id = dataset.organizations[0].leaveRequests[0].id;
    const answer = await get(`/v1/leaverequest/details/${id.toUpperCase()}`);
    expect(answer.status, answer.text).toBe(200);
    expect(seen?.path).toEqual({ id });
  });

  test("booleans and arrays arrive typed", async () => {
    await get(`/v1/leavetype/list?IsActive=false`);
    expect((seen?.query as Record<string, unknown>).IsActive).toBe(false);
    await get(`/v1/department/list?Companies=${uuid(1)}`);
    expect((seen?.query as Record<string, unknown>).Companies).toEqual([uuid(1)]);
  });
});

describe("integers are decimal digits only, the same for every integer parameter", () => {
  const written: [string, { url: string; value: string; name: string; expected: string }][] = [
    ["a sign", { url: "/v1/leaverequest/list?PageSize=%2B5", value: "+5", name: "PageSize", expected: "an integer from 1 to 100" }],
    ["a leading space", { url: "/v1/leaverequest/list?PageSize=%2010", value: " 10", name: "PageSize", expected: "an integer from 1 to 100" }],
    ["a leading zero", { url: "/v1/leaverequest/list?PageSize=010", value: "010", name: "PageSize", expected: "an integer from 1 to 100" }],
    ["exponent notation", { url: "/v1/leaverequest/list?PageSize=1e1", value: "1e1", name: "PageSize", expected: "an integer from 1 to 100" }],
    ["hexadecimal", { url: "/v1/department/list?PageSize=0x10", value: "0x10", name: "PageSize", expected: "an integer from 1 to 100" }],
    ["a decimal point", { url: "/v1/employee/list?PageNumber=2.0", value: "2.0", name: "PageNumber", expected: "an integer of at least 1" }],
    ["OrderBy in exponent notation", { url: "/v1/department/list?OrderBy=1e0", value: "1e0", name: "OrderBy", expected: "one of 0, 1" }],
    ["a status number with a leading zero", { url: "/v1/leaverequest/list?LeaveStatus=02", value: "02", name: "LeaveStatus", expected: "one of Submitted" }],
  ];
  test.each(written)("%s is a 400 naming the parameter and the value", async (_name, { url, value, name, expected }) => {
    const answer = await get(url);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json.message).toContain(`Invalid parameter ${name}: must be ${expected}`);
    expect(answer.json.message).toContain(`written in decimal digits without sign, spaces or leading zeros, got ${JSON.stringify(value)}.`);
  });

  test.each(["1", "10", "100"])("PageSize=%s is accepted", async (value) => {
    expect((await get(`/v1/leaverequest/list?PageSize=${value}`)).status).toBe(200);
  });
});

describe("the words for what a parameter accepts come from its schema", () => {
  test("LeaveStatus says what it accepts, from the spec's anyOf", () => {
    const leaveStatus = spec.byOperationId.get("listLeaveRequests")!.queryParams.find((p) => p.name === "LeaveStatus")!;
    expect(leaveStatus.expected).toBe(
      "one of Submitted, Pending, Approved, Rejected, Abandoned, Expired, or one of 0, 1, 2, 3, 4, 5",
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

/** The spec's defaults of the operation at `url`, as the handler receives them when nothing is given. */
function defaults(url: string): Record<string, unknown> {
  const path = url.split("?")[0];
  const operation = spec.operations.find((op) => op.path === path)!;
  return Object.fromEntries(operation.queryParams.flatMap((p) => (p.schema.default === undefined ? [] : [[p.name, p.schema.default]])));
}

function spec_getPaths(): string[] {
  const id = dataset.organizations[0].departments[0].id;
  const leave = dataset.organizations[0].leaveRequests[0].id;
  return ["/v1/leaverequest/list", `/v1/leaverequest/details/${leave}`, "/v1/leavetype/list", "/v1/department/list", `/v1/department/${id}`, "/v1/employee/list", `/v1/leavebalance/get-leave-balance?EmployeeId=${uuid(1)}&LeaveTypeId=${uuid(2)}`];
}

function uuid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
}
