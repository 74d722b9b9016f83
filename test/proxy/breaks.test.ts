// hr-mock proxy in front of an upstream that breaks the contract in one way at a time (the run's
// shared mock behind a server of this test that plants the break): each break is reported as
// exactly its rule and pointer, as the answer's fault, and the client still gets the answer the
// upstream sent. The security breaks are a deployment that forgot a key check on some paths: it
// answers them as the first organisation's full key, whatever key came.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startProxy } from "../../mock/index.js";

const shared = inject("mock");
const KEY = "demo_org1_full";
const auth = { authorization: `Bearer ${KEY}` };

/** What the planting upstream does to an answer: its status, content type and text. */
type Plant = (path: string, answer: { status: number; body: any }, request: http.IncomingMessage) => { status?: number; body: unknown; contentType?: string } | undefined;

let plant: Plant | undefined;
/** Paths whose key check the planted deployment forgot. */
let unguarded: ((path: string) => boolean) | undefined;
let upstream: { url: string; close(): Promise<void> };

beforeAll(async () => {
  const server = http.createServer(async (req, res) => {
    const authorization = unguarded?.(req.url ?? "") ? `Bearer ${KEY}` : req.headers.authorization;
    const answer = await fetch(shared.url + req.url, { headers: authorization ? { authorization } : {} });
    const text = await answer.text();
    const planted = plant?.(req.url ?? "", { status: answer.status, body: JSON.parse(text) }, req);
    const body = planted === undefined ? text : typeof planted.body === "string" ? planted.body : JSON.stringify(planted.body);
    res.writeHead(planted?.status ?? answer.status, { "content-type": planted?.contentType ?? "application/json; charset=utf-8" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  upstream = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
});
afterAll(() => upstream?.close());

/** The list's path, then (for a detail) the detail's: the requests a case sends in order. */
const LIST = "/v1/leaverequest/list?PageSize=5";
const items = (body: any) => body.data.data as any[];

const cases: [string, { plant: Plant; requests: (first: any) => string[]; want: string[] }][] = [
  ["a wrong type", { plant: (_, a) => (items(a.body)[1].days = "3", { body: a.body }), requests: () => [LIST], want: ["answer schema.type /data/data/1/days"] }],
  ["a dropped field", { plant: (_, a) => (delete items(a.body)[0].leaveStatus, { body: a.body }), requests: () => [LIST], want: ["answer schema.required /data/data/0/leaveStatus"] }],
  ["a date format", { plant: (_, a) => ((items(a.body)[2].startDate = items(a.body)[2].startDate.slice(0, 10)), { body: a.body }), requests: () => [LIST], want: ["answer schema.pattern /data/data/2/startDate"] }],
  ["no envelope", { plant: (_, a) => ({ body: a.body.data }), requests: () => [LIST], want: ["answer envelope "] }],
  ["an incoherent page", { plant: (_, a) => ((a.body.data.totalPages += 1), { body: a.body }), requests: () => [LIST], want: ["answer paging /data/totalPages"] }],
  ["a page shorter than it says", { plant: (_, a) => (items(a.body).pop(), { body: a.body }), requests: () => [LIST], want: ["answer paging /data/data"] }],
  [
    "a detail that differs from its list item",
    {
      plant: (path, a) => (path.includes("/details/") ? ((a.body.data.comments = "Not what the list said."), { body: a.body }) : undefined),
      requests: (first) => [LIST, `/v1/leaverequest/details/${items(first)[0].id}`],
      want: ["answer details /data/comments"],
    },
  ],
  [
    "a filter not honoured",
    { plant: (_, a) => ((items(a.body)[0].leaveStatus = "Rejected"), (items(a.body)[0].leaveStatusId = 3), { body: a.body }), requests: () => ["/v1/leaverequest/list?PageSize=5&LeaveStatus=Approved"], want: ["answer filters /data/data/0"] },
  ],
  ["an undocumented status", { plant: (_, a) => ({ status: 418, body: a.body }), requests: () => [LIST], want: ["answer status "] }],
  ["a body that is not JSON", { plant: () => ({ body: "<html>busy</html>", contentType: "text/html" }), requests: () => [LIST], want: ["answer json "] }],
  ["a failure without its envelope's message", { plant: (_, a) => (delete a.body.message, { body: a.body }), requests: () => ["/v1/leaverequest/list?PageSize=0"], want: ["request parameters /query/PageSize", "answer schema.required /message"] }],
];

describe("one break at a time, reported as exactly its rule", () => {
  it.each(cases)("%s", async (_, { plant: planting, requests, want }) => {
    const lines: string[] = [];
    const proxy = await startProxy({ upstream: upstream.url, port: 0, log: (line) => lines.push(line) });
    try {
      plant = undefined;
      const first = await (await fetch(shared.url + LIST, { headers: auth })).json();
      plant = planting;
      for (const path of requests(first)) {
        const direct = await fetch(upstream.url + path, { headers: auth });
        const through = await fetch(proxy.url + path, { headers: auth });
        expect(through.status, `the client gets the upstream's status for ${path}`).toBe(direct.status);
        expect(await through.text(), "and its body").toBe(await direct.text());
      }
      await proxy.idle();
      const found = proxy.report().violations.listed.map((v) => `${v.side} ${v.rule} ${v.pointer}`);
      expect(found, lines.join("\n")).toEqual(want);
      expect(lines, "one line per violation").toHaveLength(want.length);
    } finally {
      plant = undefined;
      await proxy.close();
    }
  });
});

describe("a deployment that forgot a key check, held to the security rules by what its own answers showed", () => {
  /** A request: its path and the key it sends (none when undefined). */
  type Sent = [string, string | undefined];
  const DEPARTMENTS = "/v1/department/list?PageSize=100";
  const cases: [string, { unguarded: (path: string) => boolean; requests: (first: { requests: any; departments: any }) => Sent[]; want: string[] }][] = [
    ["200 to a request without a key", { unguarded: () => true, requests: () => [[LIST, undefined]], want: ["request key /headers/authorization", "answer security.no-key "] }],
    ["200 to an unknown key on one operation", { unguarded: (path) => path.startsWith("/v1/department/list"), requests: () => [[LIST, "not_a_key"], [DEPARTMENTS, "not_a_key"]], want: ["answer security.unknown-key "] }],
    [
      "200 to a key lacking the permission on one operation",
      { unguarded: (path) => path.startsWith("/v1/department/") && !path.includes("list"), requests: (first) => [[DEPARTMENTS, "demo_org1_leave_view"], [`/v1/department/${first.departments.data.data[0].id}`, "demo_org1_leave_view"]], want: ["answer security.permission "] },
    ],
    [
      "200 to another organisation's id",
      {
        unguarded: (path) => path.includes("/details/"),
        requests: (first) => [[DEPARTMENTS, KEY], [DEPARTMENTS, "demo_org2_full"], [LIST, KEY], [`/v1/leaverequest/details/${items(first.requests)[0].id}`, "demo_org2_full"]],
        want: ["answer security.organisation "],
      },
    ],
  ];
  it.each(cases)("%s", async (_, { unguarded: forgot, requests, want }) => {
    const lines: string[] = [];
    const proxy = await startProxy({ upstream: upstream.url, port: 0, log: (line) => lines.push(line) });
    try {
      unguarded = undefined;
      const first = { requests: await (await fetch(shared.url + LIST, { headers: auth })).json(), departments: await (await fetch(shared.url + DEPARTMENTS, { headers: auth })).json() };
      unguarded = forgot;
      for (const [path, key] of requests(first)) {
        const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
        const direct = await fetch(upstream.url + path, { headers });
        const through = await fetch(proxy.url + path, { headers });
        expect(through.status, `the client gets the upstream's status for ${path}`).toBe(direct.status);
        expect(await through.text(), "and its body").toBe(await direct.text());
      }
      await proxy.idle();
      const found = proxy.report().violations.listed.map((v) => `${v.side} ${v.rule} ${v.pointer}`);
      expect(found, lines.join("\n")).toEqual(want);
      expect(`${lines.join("\n")}${JSON.stringify(proxy.report())}`, "no key in a line or the report").not.toMatch(/demo_org|not_a_key/);
    } finally {
      unguarded = undefined;
      await proxy.close();
    }
  });
});

it("never prints or records a key an upstream echoes into its answer", async () => {
  const lines: string[] = [];
  const proxy = await startProxy({ upstream: upstream.url, port: 0, log: (line) => lines.push(line), record: true });
  try {
    const first = await (await fetch(shared.url + LIST, { headers: auth })).json();
    plant = (path, a, req) => (path.includes("/details/") ? ((a.body.data.comments = `echo: ${req.headers.authorization}`), { body: a.body }) : undefined);
    await fetch(proxy.url + LIST, { headers: auth });
    await fetch(`${proxy.url}/v1/leaverequest/details/${items(first)[0].id}?token=s3cr3t-value`, { headers: auth });
    await proxy.idle();
    const text = `${lines.join("\n")}\n${JSON.stringify(proxy.report())}`;
    expect(text, "the violation is told").toMatch(/comments is .* in the list but "echo: \[redacted\]" in the details/);
    expect(text).not.toContain(KEY);
    expect(text, "an unknown parameter's value").not.toContain("s3cr3t-value");
    const recorded = JSON.stringify(proxy.recording()!.file);
    expect(recorded, "the echoed comment is recorded").toContain("echo: [redacted]");
    expect(recorded).not.toContain(KEY);
  } finally {
    plant = undefined;
    await proxy.close();
  }
});
