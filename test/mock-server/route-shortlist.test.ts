// Prism routes a request among a short list of operations (route.ts: those with the request's first
// two fragments and its number of fragments) for speed only: over the short list its router finds the
// same operation, or refuses with the same status and message, as over every operation of both documents.
import { beforeAll, describe, expect, test } from "vitest";
import { loadSpec, type LoadedSpec } from "../../mock/kernel/spec.js";
import { prismComponents, shortlister } from "../../mock/pipeline/route.js";

let spec: LoadedSpec;
let shortlist: ReturnType<typeof shortlister>;
const { route } = prismComponents();
beforeAll(async () => {
  spec = await loadSpec();
  shortlist = shortlister(spec.operations);
});

const id = "6f1c2a7e-2b51-4c3e-9d4a-0c8e2f6b1a90";
const cases: [string, { given: { method: string; path: string }; want: { status?: number; operationId?: string } }][] = [
  ["a list", { given: { method: "get", path: "/v1/leaverequest/list" }, want: { operationId: "listLeaveRequests" } }],
  ["a detail by id", { given: { method: "get", path: `/v1/leaverequest/details/${id}` }, want: { operationId: "getLeaveRequest" } }],
  ["a literal path beside a templated one (/v1/department/list)", { given: { method: "get", path: "/v1/department/list" }, want: { operationId: "listDepartments" } }],
  ["the templated one beside it", { given: { method: "get", path: `/v1/department/${id}` }, want: { operationId: "getDepartment" } }],
  ["an empty id", { given: { method: "get", path: "/v1/leaverequest/details/" }, want: { operationId: "getLeaveRequest" } }],
  ["a trailing slash", { given: { method: "get", path: "/v1/leaverequest/list/" }, want: { status: 404 } }],
  ["one fragment too many", { given: { method: "get", path: "/v1/leaverequest/list/extra" }, want: { status: 404 } }],
  ["one fragment too few", { given: { method: "get", path: "/v1/leaverequest" }, want: { status: 404 } }],
  ["a percent-encoded literal fragment", { given: { method: "get", path: "/v1/%6Ceaverequest/list" }, want: { operationId: "listLeaveRequests" } }],
  ["a method the path lacks", { given: { method: "delete", path: "/v1/leavetype/list" }, want: { status: 405 } }],
  ["a control API path with an id", { given: { method: "post", path: "/_mock/sandboxes/abc/reset" }, want: { operationId: "resetSandbox" } }],
  ["a literal fragment beside a template in a longer path", { given: { method: "post", path: "/_mock/webhooks/events/resend" }, want: { operationId: "resendWebhookEvents" } }],
  ["two templated paths of one length", { given: { method: "post", path: "/_mock/webhooks/events/e1/resend" }, want: { operationId: "resendWebhookEvent" } }],
  ["a path no operation has", { given: { method: "get", path: "/v2/nothing" }, want: { status: 404 } }],
  ["the root", { given: { method: "get", path: "/" }, want: { status: 404 } }],
];

describe("Prism's router over the short list decides as over every operation", () => {
  test.each(cases)("%s", (_name, { given, want }) => {
    const input = { method: given.method, url: { path: given.path, query: {} }, headers: {} } as Parameters<typeof route>[0]["input"];
    const outcome = (resources: unknown[]) => {
      const routed = route({ resources: resources as Parameters<typeof route>[0]["resources"], input });
      return routed._tag === "Right" ? { operationId: routed.right.iid } : { status: (routed.left as { status?: number }).status, message: routed.left.message };
    };
    const short = outcome(shortlist(given.path).resources);
    expect(short, "Prism's routing over the short list").toEqual(outcome(spec.operations.map((op) => op.prism)));
    expect(short, "the operation found, or the refusal's status").toMatchObject(want);
  });
});
