// Compile-time checks, enforced by `tsc --noEmit -p .` (the tsconfig includes test/): each
// expectTypeOf must hold and each @ts-expect-error line must be an error, or the type check fails.
// The tests also run, against an injected fetch, so each call's request is checked too.
import { describe, expect, expectTypeOf, test } from "vitest";
import { createClient, createHrClient, paginate, type HrApiErrorKind, type ItemOf, type ListOperationId } from "../../src/client/index.js";
import type { components } from "../../generated/api.js";
import { operationIndex } from "../../generated/client.js";
import { answerEvery, API_KEY, BASE_URL, success } from "./support/scripted-fetch.js";

type Schemas = components["schemas"];
const ID = "0b7e5c3e-8d2f-4c1a-9a57-2f1f0c6b9d11";
const emptyPage = { data: [], pageNumber: 1, pageSize: 25, totalRecords: 0, totalPages: 0 };

function recordingClient() {
  const scripted = answerEvery(() => success(emptyPage));
  const client = createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: scripted.fetch, retry: false });
  const paths = () => scripted.requests.map((r) => r.url.pathname);
  return { client, paths, requests: scripted.requests };
}

describe("result types are the spec's, unwrapped from the envelope", () => {
  test("each method resolves to its operation's data type", async () => {
    const { client, paths } = recordingClient();
    expectTypeOf(client.listLeaveRequests).returns.resolves.toEqualTypeOf<Schemas["LeaveRequestPage"]>();
    expectTypeOf(client.getLeaveRequest).returns.resolves.toEqualTypeOf<Schemas["LeaveRequestDetails"]>();
    expectTypeOf(client.getLeaveBalance).returns.resolves.toEqualTypeOf<Schemas["LeaveBalance"]>();
    expectTypeOf(client.listLeaveTypes).returns.resolves.toEqualTypeOf<Schemas["LeaveTypePage"]>();
    expectTypeOf(client.listDepartments).returns.resolves.toEqualTypeOf<Schemas["DepartmentPage"]>();
    expectTypeOf(client.getDepartment).returns.resolves.toEqualTypeOf<Schemas["DepartmentDetails"]>();
    expectTypeOf(client.listEmployees).returns.resolves.toEqualTypeOf<Schemas["EmployeePage"]>();
    const page = await client.listLeaveRequests();
    expectTypeOf(page.data).toEqualTypeOf<Schemas["LeaveRequestSummary"][]>();
    expect(paths(), "the request made").toEqual(["/v1/leaverequest/list"]);
  });

  test("the client has one method per operationId of the spec", () => {
    const { client } = recordingClient();
    for (const op of operationIndex) expect(typeof client[op.operationId], `client.${op.operationId}`).toBe("function");
  });

  test("iterate and paginate yield the exact item type", async () => {
    const { client, paths } = recordingClient();
    expectTypeOf(client.iterate("listLeaveRequests")).toEqualTypeOf<AsyncGenerator<Schemas["LeaveRequestSummary"], void, undefined>>();
    expectTypeOf(client.iterate("listDepartments")).toEqualTypeOf<AsyncGenerator<Schemas["DepartmentSummary"], void, undefined>>();
    expectTypeOf(paginate(client.listLeaveTypes)).toEqualTypeOf<AsyncGenerator<Schemas["LeaveType"], void, undefined>>();
    expectTypeOf<ItemOf<"listEmployees">>().toEqualTypeOf<Schemas["EmployeeSummary"]>();
    expectTypeOf<ListOperationId>().toEqualTypeOf<"listLeaveRequests" | "listLeaveTypes" | "listDepartments" | "listEmployees">();
    for await (const item of client.iterate("listDepartments")) expectTypeOf(item.leads).toEqualTypeOf<Schemas["DepartmentLead"][]>();
    expect(paths(), "the request made").toEqual(["/v1/department/list"]);
  });

  test("ListOperationId is exactly the generated index's list operations", () => {
    const lists: ListOperationId[] = ["listLeaveRequests", "listLeaveTypes", "listDepartments", "listEmployees"];
    expect(operationIndex.filter((op) => op.isList).map((op) => op.operationId).sort(), "isList operations").toEqual([...lists].sort());
  });

  test("createClient is createHrClient and HrApiError kinds are the eight", () => {
    expectTypeOf<HrApiErrorKind>().toEqualTypeOf<"auth" | "permission" | "validation" | "not_found" | "rate_limited" | "server" | "network" | "unknown">();
    expect(createClient, "the alias").toBe(createHrClient);
  });
});

describe("a wrong parameter is a compile error", () => {
  test("unknown names, wrong types and missing required parameters", async () => {
    const { client, requests } = recordingClient();
    // @ts-expect-error PageSze is not a parameter (misspelt PageSize)
    await client.listLeaveRequests({ PageSze: 10 });
    // @ts-expect-error PageSize is an integer, not a string
    await client.listLeaveRequests({ PageSize: "10" });
    // @ts-expect-error OrderBy is 0 or 1
    await client.listLeaveRequests({ OrderBy: 2 });
    // @ts-expect-error LeaveStatus numbers run from 0 to 5
    await client.listLeaveRequests({ LeaveStatus: 9 });
    // @ts-expect-error Companies is an array of ids
    await client.listDepartments({ Companies: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d" });
    // @ts-expect-error CompanyId belongs to leave requests and leave types, not departments
    await client.listDepartments({ CompanyId: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d" });
    // @ts-expect-error IsActive is a boolean
    await client.listLeaveTypes({ IsActive: "yes" });
    // @ts-expect-error EligibilityCriteria runs from 0 to 4
    await client.listLeaveTypes({ EligibilityCriteria: 7 });
    // @ts-expect-error Status is one of the spec's employee statuses
    await client.listEmployees({ Status: "Retired" });
    // @ts-expect-error LeaveTypeId is required
    await client.getLeaveBalance({ EmployeeId: ID });
    // @ts-expect-error the query is required
    await client.getLeaveBalance();
    // @ts-expect-error the id is a string
    await client.getLeaveRequest(42);
    // @ts-expect-error the id is required
    await client.getDepartment();
    expect(requests.length, "each of the 13 calls above still ran").toBe(13);
  });

  test("operations and fields that do not exist", async () => {
    const { client } = recordingClient();
    // @ts-expect-error the API has no write operations
    expect(client.deleteLeaveRequest, "no such method").toBeUndefined();
    const details = await client.getDepartment(ID).catch(() => undefined);
    // @ts-expect-error department details name their heads `leaders`, not `leads`
    void details?.leads;
    expect(details, "the empty page answered is still returned as data").toEqual(emptyPage);
  });

  test("paging helpers check their arguments too", () => {
    const { client } = recordingClient();
    // @ts-expect-error getLeaveRequest is not a list operation
    expect(() => client.iterate("getLeaveRequest"), "iterate(getLeaveRequest)").toThrow(TypeError);
    // @ts-expect-error SearchTerm is a string
    void client.iterate("listDepartments", { SearchTerm: 5 });
    // @ts-expect-error OrderBy is 0 or 1
    void paginate(client.listDepartments, { OrderBy: 3 });
    // @ts-expect-error paginate takes list methods only
    void paginate(client.getLeaveBalance, { EmployeeId: ID, LeaveTypeId: ID });
    expect(typeof paginate, "paginate").toBe("function");
  });

  test("the raw client is typed by paths too", async () => {
    const { client, paths } = recordingClient();
    // @ts-expect-error no such path
    await client.raw.GET("/v1/leaverequest/all", {});
    const { data } = await client.raw.GET("/v1/department/list", { params: { query: { Companies: [ID] } } });
    // openapi-fetch rewrites the type (readOnly handling), so equality is checked as assignability both ways.
    expectTypeOf(data).toExtend<Schemas["DepartmentListResponse"] | undefined>();
    expectTypeOf<Schemas["DepartmentListResponse"]>().toExtend<NonNullable<typeof data>>();
    expect(paths(), "requests made").toEqual(["/v1/leaverequest/all", "/v1/department/list"]);
  });
});
