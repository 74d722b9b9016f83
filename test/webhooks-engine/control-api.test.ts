// The control API under /_mock/ (mock/control/openapi/): Manage Webhooks required, the key's
// organisation only, bad input answered 400 naming the field, at most 10 endpoints, secrets shown
// once, strict URL rules, the Test action and the delivery log. Every answer is checked against
// the control API's own OpenAPI document.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { controlAnswerChecker, control, ORG2_WEBHOOKS_KEY, register, removeAllEndpoints, settled, TestReceiver, WEBHOOKS_KEY, type AnswerCheck, type ControlAnswer } from "./support.js";

let mock: RunningMock;
let strict: RunningMock;
let receiver: TestReceiver;
let expectInsideSpec: AnswerCheck;

beforeAll(async () => {
  [mock, strict, receiver, expectInsideSpec] = await Promise.all([
    startMock({ port: 0, webhooks: { timeScale: 0.0001 } }),
    startMock({ port: 0, webhooks: { strictUrls: true } }),
    new TestReceiver().start(),
    controlAnswerChecker(),
  ]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), strict?.close()]);
  await receiver?.close();
});

async function call(method: string, path: string, body?: unknown, key: string | null = WEBHOOKS_KEY, on = mock): Promise<ControlAnswer> {
  const answer = await control(on, method, path, body, key);
  expectInsideSpec(path, method, answer);
  return answer;
}

describe("permission: the key must hold Manage Webhooks", () => {
  const cases: Array<[string, { given: string | null; want: { status: number; message: RegExp } }]> = [
    ["no key", { given: null, want: { status: 401, message: /Authorization header is missing/ } }],
    ["an unknown key", { given: "nobody", want: { status: 401, message: /not known/ } }],
    ["a key with Leave and Employee Management but not Manage Webhooks", { given: DEMO_KEY.org1Full, want: { status: 403, message: /lacks the permission Manage Webhooks/ } }],
    ["a key with no permissions", { given: DEMO_KEY.org1NoPermissions, want: { status: 403, message: /Manage Webhooks/ } }],
  ];
  const operations: Array<[string, string, unknown]> = [
    ["GET", "/_mock/webhooks/endpoints", undefined],
    ["POST", "/_mock/webhooks/endpoints", { url: "https://hooks.example.com/hr" }],
    ["DELETE", "/_mock/webhooks/endpoints/d4e5f6a7-b8c9-4d0e-9f1a-2b3c4d5e6f70", undefined],
    ["POST", "/_mock/webhooks/endpoints/d4e5f6a7-b8c9-4d0e-9f1a-2b3c4d5e6f70/test", undefined],
    ["POST", "/_mock/webhooks/events", { type: "payroll.paid" }],
    ["GET", "/_mock/webhooks/deliveries", undefined],
    ["POST", "/_mock/webhooks/events/6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04/resend", {}],
    ["POST", "/_mock/webhooks/events/resend", { state: "failed" }],
  ];
  test.each(cases.flatMap(([name, c]) => operations.map(([method, path, body]) => [`${name}: ${method} ${path}`, { ...c, method, path, body }] as const)))(
    "%s is refused",
    async (_name, { given, want, method, path, body }) => {
      const answer = await call(method, path, body, given);
      expect(answer.status).toBe(want.status);
      expect(answer.body).toMatchObject({ isSuccessful: false, code: String(want.status), data: null });
      expect(answer.body.message).toMatch(want.message);
    },
  );

  test("a refused trigger changes nothing", async () => {
    const version = mock.dataset.version;
    await call("POST", "/_mock/webhooks/events", { type: "leave.approved" }, DEMO_KEY.org1Full);
    expect(mock.dataset.version).toBe(version);
  });
});

describe("bad input: 400 with a message naming the field", () => {
  const cases: Array<[string, { given: { method: string; path: string; body?: unknown }; want: RegExp }]> = [
    ["no url", { given: { method: "POST", path: "/_mock/webhooks/endpoints", body: {} }, want: /^Missing field url: it is required/ }],
    ["url not text", { given: { method: "POST", path: "/_mock/webhooks/endpoints", body: { url: 42 } }, want: /^Invalid field url: must be text .*got 42\.$/ }],
    ["url not a URL", { given: { method: "POST", path: "/_mock/webhooks/endpoints", body: { url: "hooks" } }, want: /not an absolute URL.*\(url\)/ }],
    ["url plain http to a public host", { given: { method: "POST", path: "/_mock/webhooks/endpoints", body: { url: "http://hooks.example.com/x" } }, want: /https:\/\/.*\(url\)/ }],
    ["url ftp", { given: { method: "POST", path: "/_mock/webhooks/endpoints", body: { url: "ftp://hooks.example.com/x" } }, want: /https:\/\/.*\(url\)/ }],
    ["url with credentials", { given: { method: "POST", path: "/_mock/webhooks/endpoints", body: { url: "https://a:b@hooks.example.com/x" } }, want: /user name or password \(url\)/ }],
    ["an unknown event type", { given: { method: "POST", path: "/_mock/webhooks/endpoints", body: { url: "https://hooks.example.com/x", events: ["leave.approved", "salary.changed"] } }, want: /^Invalid field events\[1\]: must be one of .*leave\.approved.*got "salary\.changed"\.$/ }],
    ["events neither all nor a list", { given: { method: "POST", path: "/_mock/webhooks/endpoints", body: { url: "https://hooks.example.com/x", events: "some" } }, want: /^Invalid field events: must be "all" .* or a non-empty list of event types, got "some"\.$/ }],
    ["an empty selection", { given: { method: "POST", path: "/_mock/webhooks/endpoints", body: { url: "https://hooks.example.com/x", events: [] } }, want: /^Invalid field events: .*got a list of 0\.$/ }],
    ["a secret without whsec_", { given: { method: "POST", path: "/_mock/webhooks/endpoints", body: { url: "https://hooks.example.com/x", secret: "sk_live_123456789012345678" } }, want: /^Invalid field secret: must be text matching / }],
    ["an unknown field", { given: { method: "POST", path: "/_mock/webhooks/endpoints", body: { url: "https://hooks.example.com/x", colour: "red" } }, want: /^Unknown field colour: the fields are url, description, events, secret\.$/ }],
    ["a body that is not JSON", { given: { method: "POST", path: "/_mock/webhooks/endpoints", body: "{url:" }, want: /^Invalid body: it is not valid JSON \(/ }],
    ["a body that is a list", { given: { method: "POST", path: "/_mock/webhooks/events", body: [] }, want: /^Invalid body: must be a JSON object, got a list of 0\.$/ }],
    ["no type", { given: { method: "POST", path: "/_mock/webhooks/events", body: {} }, want: /^Missing field type: it is required, one of / }],
    ["an unknown type", { given: { method: "POST", path: "/_mock/webhooks/events", body: { type: "leave.teleported" } }, want: /^Invalid field type: must be one of .*got "leave\.teleported"\.$/ }],
    ["an id that is not a uuid", { given: { method: "POST", path: "/_mock/webhooks/events", body: { type: "leave.approved", id: "42" } }, want: /^Invalid field id: must be a uuid, got "42"\.$/ }],
    ["an endpoint id that is not a uuid", { given: { method: "DELETE", path: "/_mock/webhooks/endpoints/42" }, want: /^Invalid parameter id: must be a uuid, got "42"\.$/ }],
    ["a limit that is not a number", { given: { method: "GET", path: "/_mock/webhooks/deliveries?limit=many" }, want: /^Invalid parameter limit: must be an integer from 1 to 1000, got "many"\.$/ }],
    ["a limit too large", { given: { method: "GET", path: "/_mock/webhooks/deliveries?limit=5000" }, want: /^Invalid parameter limit: must be an integer from 1 to 1000, got "5000"\.$/ }],
    ["an eventId that is not a uuid", { given: { method: "GET", path: "/_mock/webhooks/deliveries?eventId=x" }, want: /^Invalid parameter eventId: must be a uuid, got "x"\.$/ }],
  ];
  test.each(cases)("%s", async (_name, { given, want }) => {
    const answer = await call(given.method, given.path, given.body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.message).toMatch(want);
  });

  test.each([
    ["too short", "whsec_tooShort1"],
    ["with a space", "whsec_abcdefgh ijklmnopqrstuv"],
    ["without whsec_", "sk_live_abcdefghijklmnopqrstuv"],
  ])("a refused secret (%s) is named but never echoed", async (_name, secret) => {
    const answer = await call("POST", "/_mock/webhooks/endpoints", { url: "https://hooks.example.com/x", secret });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/^Invalid field secret: /);
    expect(answer.body.message, "the value sent").not.toContain(secret);
  });

  test.each([["/_mock/webhooks/endpoints"], ["/_mock/webhooks/events"]])("a body over 64 KiB to %s is a 413 the document lists", async (path) => {
    const answer = await call("POST", path, { url: "https://hooks.example.com/x", description: "x".repeat(70 * 1024) });
    expect(answer.status).toBe(413);
    expect(answer.body.message).toMatch(/^Payload too large: the body exceeds 65536 bytes/);
  });

  test("nothing was added by the refused requests", async () => {
    expect((await call("GET", "/_mock/webhooks/endpoints")).body.data.filter((e: any) => e.url.startsWith("https://hooks.example.com/x"))).toEqual([]);
  });
});

describe("endpoints", () => {
  afterEach(() => removeAllEndpoints(mock));

  test("added with a secret shown once; listed without it; removed", async () => {
    const added = await call("POST", "/_mock/webhooks/endpoints", { url: receiver.url, description: " Local receiver ", events: ["webhook.test"] });
    expect(added.status).toBe(201);
    const { id, secret } = added.body.data;
    expect(secret, "whsec_ and 32 random bytes in base64url").toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(added.body.data).toMatchObject({ url: receiver.url, description: "Local receiver", events: ["webhook.test"] });

    const listed = await call("GET", "/_mock/webhooks/endpoints");
    const shown = listed.body.data.find((e: any) => e.id === id);
    expect(shown, "the endpoint is listed").toBeDefined();
    expect(JSON.stringify(listed.body), "no secret in the list").not.toContain(secret);
    expect(Object.keys(shown).sort()).toEqual(["createdAt", "description", "events", "id", "url"]);

    const removed = await call("DELETE", `/_mock/webhooks/endpoints/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data.id).toBe(id);
    expect((await call("GET", "/_mock/webhooks/endpoints")).body.data.map((e: any) => e.id)).not.toContain(id);
    expect((await call("DELETE", `/_mock/webhooks/endpoints/${id}`)).status, "removing it again").toBe(404);
  });

  test("another organisation's endpoint is not found, and its list is its own", async () => {
    const own = await call("POST", "/_mock/webhooks/endpoints", { url: "https://hooks.example.com/org1" });
    const id = own.body.data.id;
    expect((await call("DELETE", `/_mock/webhooks/endpoints/${id}`, undefined, ORG2_WEBHOOKS_KEY)).status).toBe(404);
    expect((await call("POST", `/_mock/webhooks/endpoints/${id}/test`, undefined, ORG2_WEBHOOKS_KEY)).status).toBe(404);
    expect((await call("GET", "/_mock/webhooks/endpoints", undefined, ORG2_WEBHOOKS_KEY)).body.data.map((e: any) => e.id)).not.toContain(id);
    await call("DELETE", `/_mock/webhooks/endpoints/${id}`);
  });

  test("the 11th endpoint of an organisation is refused with 409; another organisation is not affected", async () => {
    const limit = mock.webhooks.settings.maxEndpointsPerOrganisation;
    expect(limit, "x-max-endpoints-per-organisation").toBe(10);
    const already = (await call("GET", "/_mock/webhooks/endpoints", undefined, ORG2_WEBHOOKS_KEY)).body.data.length;
    for (let i = already; i < limit; i++) {
      expect((await call("POST", "/_mock/webhooks/endpoints", { url: `https://hooks.example.com/n${i}` }, ORG2_WEBHOOKS_KEY)).status).toBe(201);
    }
    const eleventh = await call("POST", "/_mock/webhooks/endpoints", { url: "https://hooks.example.com/eleventh" }, ORG2_WEBHOOKS_KEY);
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.message).toMatch(/already has 10 webhook endpoints/);
    expect((await call("POST", "/_mock/webhooks/endpoints", { url: "https://hooks.example.com/org1-still-fine" })).status, "organisation 1 may still add").toBe(201);
  });

  test("the Test action sends webhook.test to that endpoint only, whatever its selection, and the log shows the answer", async () => {
    const other = await new TestReceiver().start();
    try {
      const { id } = await register(mock, receiver, { events: ["leave.approved"] });
      await register(mock, other, { events: "all" });
      const answer = await call("POST", `/_mock/webhooks/endpoints/${id}/test`);
      expect(answer.status).toBe(202);
      const event = answer.body.data.event;
      expect(event).toMatchObject({ type: "webhook.test", data: { endpointId: id } });
      expect(answer.body.data.deliveries).toEqual([{ endpointId: id, url: receiver.url, duplicate: false }]);
      await receiver.event(event.id);
      expect(other.requestsFor(event.id), "the other endpoint gets no test event").toEqual([]);

      await settled(mock, event.id, id);
      const log = await call("GET", `/_mock/webhooks/deliveries?eventId=${event.id}`);
      expect(log.body.data).toHaveLength(1);
      expect(log.body.data[0]).toMatchObject({ eventId: event.id, endpointId: id, state: "succeeded", type: "webhook.test" });
      // The last attempt is the one that succeeded (on a loaded machine an earlier one may have hit
      // the 1 s response timeout and been retried). A retry of a delivery the receiver had already
      // taken is answered as a duplicate, as createReceiver answers one.
      const attempts = log.body.data[0].attempts;
      const answered = receiver.duplicates.some((d) => d.eventId === event.id) ? '{"received":true,"duplicate":true}' : '{"received":true}';
      expect(attempts.at(-1)).toMatchObject({ attempt: attempts.length, status: 200, outcome: "succeeded", answer: answered, nextRetryAt: null });
      expect(attempts.at(-1).deliveryId).toBe(receiver.requestsFor(event.id).at(-1)!.deliveryId);
    } finally {
      await other.close();
    }
  });

  test("an event goes only to endpoints that receive its type; the log filters by endpoint", async () => {
    const leaveOnly = await new TestReceiver().start();
    try {
      const { id } = await register(mock, leaveOnly, { events: ["leave.requested"] });
      const paid = await call("POST", "/_mock/webhooks/events", { type: "payroll.paid" });
      expect(paid.body.data.deliveries.map((d: any) => d.endpointId)).not.toContain(id);
      const requested = await call("POST", "/_mock/webhooks/events", { type: "leave.requested" });
      expect(requested.body.data.deliveries.map((d: any) => d.endpointId)).toContain(id);
      await leaveOnly.event(requested.body.data.event.id);
      await settled(mock, requested.body.data.event.id, id);
      const log = await call("GET", `/_mock/webhooks/deliveries?endpointId=${id}&limit=10`);
      expect(log.body.data.map((d: any) => d.eventId)).toEqual([requested.body.data.event.id]);
    } finally {
      await leaveOnly.close();
    }
  });

  test("the log of one organisation shows its deliveries and none of another's", async () => {
    await register(mock, receiver, {}, ORG2_WEBHOOKS_KEY);
    await call("POST", "/_mock/webhooks/endpoints", { url: "https://hooks.example.com/org1-log" });
    const own = await call("POST", "/_mock/webhooks/events", { type: "payroll.paid" }, ORG2_WEBHOOKS_KEY);
    const other = await call("POST", "/_mock/webhooks/events", { type: "payroll.paid" });
    expect([own.status, other.status]).toEqual([202, 202]);

    const answer = await call("GET", "/_mock/webhooks/deliveries?limit=1000", undefined, ORG2_WEBHOOKS_KEY);
    const eventIds = answer.body.data.map((d: any) => d.eventId);
    expect(eventIds, "organisation 2's own event is listed").toContain(own.body.data.event.id);
    expect(eventIds, "organisation 1's event is not").not.toContain(other.body.data.event.id);
    const org2 = mock.ids[1].organizationId;
    expect(answer.body.data.filter((d: any) => d.organizationId !== org2), "entries of another organisation").toEqual([]);
  });
});

describe("strictUrls: https only, no private or internal addresses (registration only)", () => {
  const refused: Array<[string, string]> = [
    ["plain http", "http://hooks.example.com/hr"],
    ["http to loopback", "http://127.0.0.1:3000/hooks"],
    ["a 10.x address", "https://10.1.2.3/hooks"],
    ["a 192.168.x address", "https://192.168.1.20/hooks"],
    ["a 172.16.x address", "https://172.20.0.5/hooks"],
    ["localhost", "https://localhost/hooks"],
    ["loopback", "https://127.0.0.1/hooks"],
    ["IPv6 loopback", "https://[::1]/hooks"],
    ["an IPv6 unique local address", "https://[fd12:3456::1]/hooks"],
    ["link-local", "https://169.254.169.254/latest"],
    ["an .internal name", "https://hooks.corp.internal/x"],
    ["a .local name", "https://printer.local/x"],
  ];
  test.each(refused)("%s is refused", async (_name, url) => {
    const answer = await call("POST", "/_mock/webhooks/endpoints", { url }, WEBHOOKS_KEY, strict);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.message).toMatch(/\(url\)\.$/);
  });

  test("a public https URL is accepted", async () => {
    const answer = await call("POST", "/_mock/webhooks/endpoints", { url: "https://hooks.example.com/hr" }, WEBHOOKS_KEY, strict);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  });

  test("development mode accepts http on loopback but not elsewhere", async () => {
    expect((await call("POST", "/_mock/webhooks/endpoints", { url: "http://localhost:3999/hooks" })).status).toBe(201);
    expect((await call("POST", "/_mock/webhooks/endpoints", { url: "http://192.168.1.20/hooks" })).status).toBe(400);
  });
});

describe("while the mock shuts down (its engine closed, the server still answering)", () => {
  let closing: RunningMock;
  let endpointId: string;
  beforeAll(async () => {
    closing = await startMock({ port: 0, webhooks: { timeScale: 0.0001 } });
    endpointId = (await closing.webhooks.addEndpoint({ url: "https://hooks.example.com/closing" })).id;
    await closing.webhooks.close();
  });
  afterAll(() => closing?.close());

  const cases: Array<[string, { given: { method: string; path: () => string; body?: unknown }; want: number }]> = [
    ["adding an endpoint", { given: { method: "POST", path: () => "/_mock/webhooks/endpoints", body: { url: "https://hooks.example.com/late" } }, want: 503 }],
    ["the Test action", { given: { method: "POST", path: () => `/_mock/webhooks/endpoints/${endpointId}/test` }, want: 503 }],
    ["a trigger", { given: { method: "POST", path: () => "/_mock/webhooks/events", body: { type: "payroll.paid" } }, want: 503 }],
    ["the list of endpoints", { given: { method: "GET", path: () => "/_mock/webhooks/endpoints" }, want: 200 }],
    ["the delivery log", { given: { method: "GET", path: () => "/_mock/webhooks/deliveries" }, want: 200 }],
  ];
  test.each(cases)("%s is answered as the control API's document says", async (_name, { given, want }) => {
    const answer = await call(given.method, given.path(), given.body, WEBHOOKS_KEY, closing);
    expect(answer.status, JSON.stringify(answer.body)).toBe(want);
    if (want === 503) expect(answer.body.message).toMatch(/^Service unavailable: the mock is shutting down/);
  });
});

describe("routing under /_mock/", () => {
  test("an unknown path is a 404 envelope", async () => {
    const answer = await control(mock, "GET", "/_mock/nothing-here");
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ isSuccessful: false, code: "404" });
  });

  test("a method a path does not answer is the 405 the document declares, with Allow", async () => {
    const answer = await control(mock, "PUT", "/_mock/webhooks/endpoints", { url: "https://hooks.example.com/x" });
    expect(answer.status).toBe(405);
    expectInsideSpec("/_mock/webhooks/endpoints", "GET", answer); // the path's operations declare the 405
    expect(answer.headers.get("allow")).toBe("GET, POST, HEAD");
    expect(answer.body.message).toMatch(/^Method not allowed: PUT is not an operation of \/_mock\/webhooks\/endpoints/);
  });

  test("HEAD on a GET operation is the GET answer without its body", async () => {
    const response = await fetch(`${mock.url}/_mock/webhooks/endpoints`, { method: "HEAD", headers: { authorization: `Bearer ${WEBHOOKS_KEY}` } });
    const get = await call("GET", "/_mock/webhooks/endpoints");
    expect(response.status).toBe(200);
    expect(await response.text(), "no body").toBe("");
    expect(Number(response.headers.get("content-length")), "the GET answer's length").toBe(Buffer.byteLength(JSON.stringify(get.body)));
  });

  test("control answers are never stored by a cache", async () => {
    expect((await control(mock, "GET", "/_mock/webhooks/endpoints")).headers.get("cache-control")).toBe("no-store");
  });
});

describe("the same request checks as the read API", () => {
  const cases: Array<[string, { given: { path: string; init?: RequestInit }; want: { status: number; message: RegExp } }]> = [
    ["a limit in exponent form", { given: { path: "/_mock/webhooks/deliveries?limit=1e3" }, want: { status: 400, message: /^Invalid parameter limit: must be an integer from 1 to 1000, written in decimal digits/ } }],
    ["a repeated limit", { given: { path: "/_mock/webhooks/deliveries?limit=5&limit=6" }, want: { status: 400, message: /^Invalid parameter limit: must be an integer from 1 to 1000, got 2 values/ } }],
    ["two Authorization headers (fetch joins them into one)", { given: { path: "/_mock/webhooks/endpoints", init: { headers: [["authorization", `Bearer ${WEBHOOKS_KEY}`], ["authorization", `Bearer ${DEMO_KEY.org1Full}`]] } }, want: { status: 401, message: /^Unauthorized: the Authorization header must hold one API key/ } }],
    [
      "a body sent as text/plain (what a page's fetch sends without a Content-Type)",
      { given: { path: "/_mock/webhooks/events", init: { method: "POST", headers: { authorization: `Bearer ${WEBHOOKS_KEY}`, "content-type": "text/plain" }, body: JSON.stringify({ type: "payroll.paid" }) } }, want: { status: 415, message: /^Unsupported media type: send the body as application\/json/ } },
    ],
    [
      "a body nested 5,000 levels deep",
      { given: { path: "/_mock/webhooks/endpoints", init: { method: "POST", headers: { authorization: `Bearer ${WEBHOOKS_KEY}`, "content-type": "application/json" }, body: `{"url":${"[".repeat(5000)}${"]".repeat(5000)}}` } }, want: { status: 400, message: /^Invalid body: it is nested more than 8 levels deep\.$/ } },
    ],
  ];
  test.each(cases)("%s", async (_name, { given, want }) => {
    const response = await fetch(mock.url + given.path, { headers: { authorization: `Bearer ${WEBHOOKS_KEY}` }, ...given.init });
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(want.status);
    expect(body).toMatchObject({ isSuccessful: false, code: String(want.status), data: null });
    expect(body.message).toMatch(want.message);
  });

  test("the read API is untouched: /v1/ still answers", async () => {
    const response = await fetch(`${mock.url}/v1/leavetype/list`, { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
    expect(response.status).toBe(200);
  });
});
