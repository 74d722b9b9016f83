// hr-mock proxy in front of the package's own mock (the run's shared mock): every answer reaches the
// client as the mock sent it, the mock's traffic breaks no rule of the contract, a client's request
// that does is named as the request's fault, and the report and the log never hold the key.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startProxy, type RunningProxy } from "../../mock/index.js";
import { validPaths } from "../mock-server/support.js";
import { rawRequest } from "../support/raw-http.js";

const shared = inject("mock");
const KEY = "demo_org1_full";
const auth = { authorization: `Bearer ${KEY}` };
let proxy: RunningProxy;
const lines: string[] = [];
let reportRequests = 0;

beforeAll(async () => {
  proxy = await startProxy({ upstream: shared.url, port: 0, log: (line) => lines.push(line), onReportRequest: () => void reportRequests++ });
});
afterAll(() => proxy?.close());

/** The answer as the client reads it: status, headers but Date, body bytes. */
async function answerOf(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== "date"));
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString("base64") };
}

describe("in front of the package's mock", () => {
  const paths = Object.entries(validPaths(shared.ids[0]));

  it.each(paths)("%s: the same answer through the proxy as from the mock", async (_, path) => {
    for (const method of ["GET", "HEAD"]) {
      const direct = await answerOf(shared.url + path, { method, headers: auth });
      const through = await answerOf(proxy.url + path, { method, headers: auth });
      expect(through, `${method} ${path}`).toEqual(direct);
    }
  });

  it("finds no violation in the mock's answers, and counts them per operation and status", async () => {
    await proxy.idle();
    const report = proxy.report();
    expect(report.violations.listed, lines.join("\n")).toEqual([]);
    for (const [operation] of paths) expect(report.exchanges.byOperation[operation]?.["200"], operation).toBe(2);
    expect(report.exitCode).toBe(0);
  });

  it("raises no security alarm on the mock's refusals: an unknown key, a missing permission, another organisation's id", async () => {
    const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
    const departments = "/v1/department/list?PageSize=100";
    const org1 = await (await fetch(`${proxy.url}${departments}`, as(KEY))).json();
    await fetch(`${proxy.url}${departments}`, as("demo_org2_full"));
    const leave = await (await fetch(`${proxy.url}/v1/leaverequest/list?PageSize=3`, as(KEY))).json();
    const sent: [string, string, number][] = [
      [`/v1/leaverequest/details/${leave.data.data[0].id}`, "demo_org2_full", 404],
      [`/v1/department/${org1.data.data[0].id}`, "demo_org2_full", 404],
      ["/v1/leaverequest/list", "not_a_key", 401],
      [departments, "not_a_key", 401],
      [departments, "demo_org1_leave_view", 403],
      [`/v1/department/${org1.data.data[0].id}`, "demo_org1_leave_view", 403],
      ["/v1/leavetype/list", "demo_org1_leave_view", 200],
    ];
    for (const [path, key, status] of sent) expect((await fetch(proxy.url + path, as(key))).status, `${key} on ${path}`).toBe(status);
    await proxy.idle();
    expect(proxy.report().violations.listed, lines.join("\n")).toEqual([]);
  });

  it("names a request that breaks the contract as the request's fault, with its rule and pointer", async () => {
    const cases: [string, RequestInit, { rule: string; pointer: string; message: RegExp }][] = [
      ["/v1/leaverequest/list?PageSize=500", { headers: auth }, { rule: "parameters", pointer: "/query/PageSize", message: /^Invalid parameter PageSize: must be an integer from 1 to 100, got "500"\.$/ }],
      ["/v1/leavetype/list?IsActive=maybe", { headers: auth }, { rule: "parameters", pointer: "/query/IsActive", message: /^Invalid parameter IsActive/ }],
      ["/v1/department/list", { headers: { authorization: `Basic ${KEY}` } }, { rule: "key", pointer: "/headers/authorization", message: /its scheme is "Basic"/ }],
      ["/v1/employee/list", {}, { rule: "key", pointer: "/headers/authorization", message: /^no Authorization header/ }],
      ["/v1/leaverequest/List", { headers: auth }, { rule: "operation", pointer: "", message: /did you mean \/v1\/leaverequest\/list\?/ }],
      ["/v1/leavetype/list", { method: "DELETE", headers: auth }, { rule: "method", pointer: "", message: /^DELETE is not an operation of \/v1\/leavetype\/list$/ }],
    ];
    for (const [path, init, want] of cases) {
      const before = proxy.report().violations.total;
      await fetch(proxy.url + path, init);
      await proxy.idle();
      const report = proxy.report();
      expect(report.violations.total - before, `one violation for ${path}`).toBe(1);
      const found = report.violations.listed.at(-1)!;
      expect(found, path).toMatchObject({ side: "request", rule: want.rule, pointer: want.pointer });
      expect(found.message).toMatch(want.message);
    }
    expect(lines.length, "one line per violation").toBe(cases.length);
    expect(proxy.report().exitCode).toBe(1);
  });

  it("prints and reports no key, whichever header carried it", () => {
    const text = `${lines.join("\n")}\n${JSON.stringify(proxy.report())}`;
    expect(text).not.toContain(KEY);
  });

  it("passes the mock's control API on without judging it", async () => {
    const answer = await fetch(`${proxy.url}/_mock/webhooks/endpoints`, { headers: { authorization: "Bearer demo_org1_webhooks_admin" } });
    expect(answer.status).toBe(200);
    await proxy.idle();
    expect(proxy.report().exchanges.notChecked).toMatchObject({ "the mock's control API (/_mock/), not part of the contract": 1 });
  });

  it("passes a browser's CORS preflight on to the upstream without judging it", async () => {
    const preflight = { method: "OPTIONS", headers: { origin: "http://localhost:5173", "access-control-request-method": "GET", "access-control-request-headers": "authorization" } };
    const direct = await answerOf(`${shared.url}/v1/leavetype/list`, preflight);
    const through = await answerOf(`${proxy.url}/v1/leavetype/list`, preflight);
    expect(through).toEqual(direct);
    await proxy.idle();
    expect(proxy.report().exchanges.notChecked).toMatchObject({ "CORS preflights (OPTIONS), passed on to the upstream": 1 });
  });

  it("answers an absolute-form target for itself or the upstream as its path, another host's with a 421", async () => {
    const path = "/v1/leavetype/list?PageSize=2";
    const direct = await rawRequest(proxy.port, `GET ${path} HTTP/1.1`, auth);
    for (const origin of [proxy.url, shared.url]) {
      const answer = await rawRequest(proxy.port, `GET ${origin}${path} HTTP/1.1`, auth);
      expect(answer?.status, origin).toBe(200);
      expect(answer?.body).toBe(direct?.body);
    }
    const foreign = await rawRequest(proxy.port, `GET http://api.example.com${path} HTTP/1.1`, auth);
    expect(foreign?.status).toBe(421);
    expect(JSON.parse(foreign!.body).message).toMatch(/^Misdirected request: the request is for http:\/\/api\.example\.com, but this is the hr-mock proxy to http:\/\/127\.0\.0\.1:\d+/);
  });

  it("answers OPTIONS * itself with the contract's methods", async () => {
    const answer = await rawRequest(proxy.port, "OPTIONS * HTTP/1.1");
    expect(answer?.status).toBe(200);
    expect(answer?.headers.allow).toBe("GET, HEAD");
    expect(JSON.parse(answer!.body).isSuccessful).toBe(true);
  });

  it("answers its report at GET /_proxy/report, and POST runs onReportRequest first", async () => {
    const got = await (await fetch(`${proxy.url}/_proxy/report`)).json();
    expect(got.data.upstream).toBe(shared.url);
    expect(got.data.violations.total).toBe(proxy.report().violations.total);
    expect(reportRequests).toBe(0);
    const posted = await fetch(`${proxy.url}/_proxy/report`, { method: "POST" });
    expect(posted.status).toBe(200);
    expect(reportRequests).toBe(1);
    const other = await fetch(`${proxy.url}/_proxy/other`);
    expect(other.status).toBe(404);
  });
});
