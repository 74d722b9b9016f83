// One request through the dispatcher in-process (Prism's public pipeline, then the dataset's mock
// component), as plain objects: routing and HEAD, what Prism's parameter validation refuses and how
// the refusal reads, and the query the handler then sees.
import { beforeAll, describe, expect, test } from "vitest";
import { createKeyRegistry } from "../../mock/auth/key-registry.js";
import { DEMO_KEY, DEMO_KEYS } from "../../mock/keys/demo-keys.js";
import type { ResourceHandlers, ResourceRequest } from "../../mock/resources/contract.js";
import { handlers } from "../../mock/resources/index.js";
import { createDispatcher, type Dispatcher } from "../../mock/server/dispatch.js";
import { ResponseCache } from "../../mock/server/response-cache.js";
import { describeSchema } from "../../mock/server/schema-text.js";
import { loadSpec, type LoadedSpec } from "../../mock/server/spec.js";
import { freshDataset } from "../mock-data/fixture.js";

const dataset = freshDataset();
let spec: LoadedSpec;
let dispatch: Dispatcher;
/** The last request a handler received. */
let seen: ResourceRequest | undefined;

beforeAll(async () => {
  spec = await loadSpec();
  const spying = Object.fromEntries(
    Object.entries(handlers).map(([id, handler]) => [id, (ds: never, request: ResourceRequest) => ((seen = request), handler(ds, request))]),
  ) as unknown as ResourceHandlers;
  dispatch = createDispatcher({
    spec,
    keys: createKeyRegistry(DEMO_KEYS, dataset.organizations.map((o) => o.id)),
    handlers: spying,
    dataset: () => dataset,
    failRate: 0,
    random: Math.random,
    // No cache: every request goes through Prism, as a first request does.
    cache: new ResponseCache(0),
    now: () => 0,
    onInternalError: (line) => {
      throw new Error(`no internal error expected, got ${line}`);
    },
  });
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

  test("a method the path lacks names the methods it has, HEAD with GET", async () => {
    const answer = await get("/v1/department/list", undefined, "PUT");
    expect(answer.status).toBe(404);
    expect(answer.headers?.Allow).toBe("GET, HEAD");
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
    ["names match without regard to case, under the spec's spelling", { url: "/v1/leaverequest/list?pagesize=7", want: { PageSize: "7" } }],
    ["an empty value counts as absent, as in Prism", { url: "/v1/leaverequest/list?PageSize=", want: {} }],
    ["a status name is not a number", { url: "/v1/leaverequest/list?LeaveStatus=approved", want: { LeaveStatus: "approved" } }],
    ["a repeated array parameter stays an array", { url: `/v1/department/list?Companies=${uuid(1)}&Companies=${uuid(2)}`, want: { Companies: [uuid(1), uuid(2)] } }],
    ["parameters the spec does not know pass through", { url: "/v1/leavetype/list?Foo=bar", want: { Foo: "bar" } }],
    ["an encoded %", { url: "/v1/leaverequest/list?SearchTerm=50%25", want: { SearchTerm: "50%" } }],
    ["encoded UTF-8 and + for a space", { url: "/v1/leaverequest/list?SearchTerm=Jos%C3%A9+M", want: { SearchTerm: "José M" } }],
  ];
  test.each(cases)("%s", async (_name, { url, want }) => {
    const answer = await get(url);
    expect(answer.status, answer.text).toBe(200);
    expect(seen?.query).toEqual(want);
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

function spec_getPaths(): string[] {
  const id = dataset.organizations[0].departments[0].id;
  const leave = dataset.organizations[0].leaveRequests[0].id;
  return ["/v1/leaverequest/list", `/v1/leaverequest/details/${leave}`, "/v1/leavetype/list", "/v1/department/list", `/v1/department/${id}`, "/v1/employee/list", `/v1/leavebalance/get-leave-balance?EmployeeId=${uuid(1)}&LeaveTypeId=${uuid(2)}`];
}

function uuid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
}
