// A request asks Prism once: its pipeline routes and validates it once (the `route` component), and
// Prism's mocker builds an answer only for a `Prefer` request the key's admission let through, once.
// Counted through the Prism components the dispatcher is given, wrapped around Prism's own.
import { beforeAll, describe, expect, test } from "vitest";
import type { PrismHttpComponents } from "@stoplight/prism-http";
import { DEMO_KEY } from "../../mock/keys/demo-keys.js";
import type { Dispatcher } from "../../mock/pipeline/dispatch.js";
import { prismComponents } from "../../mock/pipeline/route.js";
import { testDispatcher } from "./dispatcher.js";

const calls = { route: 0, mock: 0 };
let dispatch: Dispatcher;
beforeAll(async () => {
  const own = prismComponents();
  const counted: Partial<PrismHttpComponents> = {
    route: (...args) => (calls.route++, own.route(...args)),
    mock: (...args) => (calls.mock++, own.mock(...args)),
  };
  // No response cache (testDispatcher's): every request reaches Prism.
  dispatch = await testDispatcher({ prism: counted });
});

const full = `Bearer ${DEMO_KEY.org1Full}`;
const cases: [string, { given: { method: string; url: string; headers: Record<string, string> }; want: { status: number; route: number; mock: number } }][] = [
  ["Prefer code=404", { given: { method: "GET", url: "/v1/leavetype/list", headers: { authorization: full, prefer: "code=404" } }, want: { status: 404, route: 1, mock: 1 } }],
  ["Prefer example=success", { given: { method: "GET", url: "/v1/department/list", headers: { authorization: full, prefer: "example=success" } }, want: { status: 200, route: 1, mock: 1 } }],
  ["Prefer dynamic=true", { given: { method: "GET", url: "/v1/employee/list", headers: { authorization: full, prefer: "dynamic=true" } }, want: { status: 200, route: 1, mock: 1 } }],
  // Before, Prism's second pass always asked for GET, and a POST with Prefer was refused with a 400 naming the GET method the route lacks.
  ["Prefer code=201 on a POST (the control API's example)", { given: { method: "POST", url: "/_mock/sandboxes", headers: { authorization: `Bearer ${DEMO_KEY.org1WebhooksAdmin}`, prefer: "code=201", "content-type": "application/json" } }, want: { status: 201, route: 1, mock: 1 } }],
  ["Prefer with an unknown example (refused before Prism's mocker)", { given: { method: "GET", url: "/v1/leavetype/list", headers: { authorization: full, prefer: "example=nope" } }, want: { status: 404, route: 1, mock: 0 } }],
  ["Prefer without a key (refused at admission)", { given: { method: "GET", url: "/v1/leavetype/list", headers: { prefer: "code=404" } }, want: { status: 401, route: 1, mock: 0 } }],
  ["a request without Prefer", { given: { method: "GET", url: "/v1/leavetype/list", headers: { authorization: full } }, want: { status: 200, route: 1, mock: 0 } }],
  ["a method the path lacks (405)", { given: { method: "DELETE", url: "/v1/leavetype/list", headers: { authorization: full } }, want: { status: 405, route: 1, mock: 0 } }],
  ["a path no operation has (404)", { given: { method: "GET", url: "/v1/nothing", headers: { authorization: full } }, want: { status: 404, route: 1, mock: 0 } }],
];

describe("Prism is asked once per request", () => {
  test.each(cases)("%s", async (_name, { given, want }) => {
    calls.route = 0;
    calls.mock = 0;
    const reply = await dispatch(given);
    const text = typeof reply.body === "string" ? reply.body : Buffer.from(reply.body).toString();
    expect(reply.status, text).toBe(want.status);
    expect(calls.route, "Prism's pipeline runs (routing) for this request").toBe(want.route);
    expect(calls.mock, "Prism's mocker calls for this request").toBe(want.mock);
  });
});
