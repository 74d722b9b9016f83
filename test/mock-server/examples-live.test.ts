// The contract's examples are live: every operation, asked with every parameter's example from the
// bundled document (the request a reader copies from the API reference, and the one Portman, Dredd
// or Specmatic build), answers the default dataset's mock with the status its example documents,
// and names the record its example names; --today moves no id. The records the examples name carry
// the values the examples show (generated/facts.ts exampleRecords) where the data's rules allow, and
// each list asked with all its examples at once answers a page holding the example record: every
// value that cannot hold is named below with the rule that keeps it, and that rule is checked.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleIds, exampleRecords } from "../../generated/facts.js";
import { startMock, DEMO_KEY, type RunningMock } from "../../mock/index.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { deref } from "../../src/contract/spec-document.js";

const doc = JSON.parse(fs.readFileSync(path.join(repoRoot, "generated/openapi.json"), "utf8"));
/** Two todays far apart: one where the example request's dates fit the records' window, one years after it. */
const TODAYS = ["2026-11-29", "2031-02-01"] as const;
const mocks = new Map<string, RunningMock>();
beforeAll(async () => {
  for (const today of TODAYS) mocks.set(today, await startMock({ port: 0, today, rateLimit: "off" }));
});
afterAll(async () => {
  for (const mock of mocks.values()) await mock.close();
});
const get = async (today: string, url: string) => {
  const response = await fetch(`${mocks.get(today)!.url}${url}`, { headers: { Authorization: `Bearer ${DEMO_KEY.org1Full}` } });
  return { status: response.status, body: await response.json() };
};

/** Each operation's example request: the path with its examples, every query parameter with its example; and the success example's body. */
const requests = Object.entries<Record<string, any>>(doc.paths).flatMap(([template, item]) =>
  Object.entries<any>(item).map(([method, op]) => {
    const query = new URLSearchParams();
    let url = template;
    for (const param of (op.parameters ?? []).map((p: unknown) => deref(doc, p))) {
      if (param.in === "path") url = url.replace(`{${param.name}}`, encodeURIComponent(String(param.example)));
      if (param.in === "query") for (const value of Array.isArray(param.example) ? param.example : [param.example]) query.append(param.name, String(value));
    }
    const [status, response] = Object.entries<any>(op.responses).find(([code]) => /^2/.test(code))!;
    const content = deref(doc, response).content?.["application/json"];
    const example = content?.example ?? Object.values<any>(content?.examples ?? {})[0]?.value;
    return [`${method.toUpperCase()} ${url}${query.size ? `?${query}` : ""}`, { method, url: `${url}${query.size ? `?${query}` : ""}`, status: Number(status), example }] as const;
  }),
);

describe("the contract's example requests against the default dataset", () => {
  it("name the ids organisation 1's records carry", () => {
    expect(Object.keys(exampleIds).sort()).toEqual(["company", "department", "employee", "leaveRequest", "leaveType"]);
  });

  it.each(requests)("%s answers its documented status and the records its example names", async (_, { method, url, status, example }) => {
    const mock = mocks.get("2031-02-01")!;
    const response = await fetch(`${mock.url}${url}`, { method: method.toUpperCase(), headers: { Authorization: `Bearer ${DEMO_KEY.org1Full}` } });
    const body = await response.json();
    expect(response.status, `${url}: ${body.message}`).toBe(status);
    // Every id of organisation 1's example records the example shows, the answer shows at the same place (a list's: in some item).
    const ids = new Set<unknown>(Object.values(exampleIds));
    for (const [key, value] of Object.entries<any>(example?.data ?? {})) {
      if (ids.has(value)) expect(body.data[key], `data.${key}`).toBe(value);
      if (Array.isArray(value) && key !== "data") {
        for (const item of value) if (ids.has(item?.id)) expect(body.data[key].map((x: { id: string }) => x.id), `data.${key}[].id`).toContain(item.id);
      }
    }
  });
});

// The example request's dates, as the data's rules place a request: asked before today and before it
// starts, and starting from 1 January of last year to 150 days ahead (the window the records and the
// holiday calendar cover). For 2031-02-01 the window starts on 2030-01-01, so 2026-12-21 cannot be.
const asked = exampleRecords.leaveRequest.requestedOn.slice(0, 10);
const start = exampleRecords.leaveRequest.startDate.slice(0, 10);
const datesHold = (today: string) => asked < today && start >= `${Number(today.slice(0, 4)) - 1}-01-01` && Date.parse(start) <= Date.parse(today) + 150 * 86_400_000;
/** The leave request list's example request without its StartDate and EndDate. */
const undated = (url: string) => {
  const at = new URL(url, "http://x");
  at.searchParams.delete("StartDate");
  at.searchParams.delete("EndDate");
  return `${at.pathname}${at.search}`;
};
const DATE_FIELDS = ["startDate", "endDate", "days", "requestedOn"];

/** Values of the examples the data keeps otherwise, by field path of the record, with the rule why; the rule's check gets the answer's value and organisation 1's data. */
const kept: [string, string, (today: string) => boolean][] = [
  ["unitsCount", "the department's units are records employees and leave types name; their count is computed", () => true],
  ["membersCount", "the department's members are counted from the employees", () => true],
  ["documents[0].document", "a link is https://files.<organisation's domain>/leave/<request id>/<name>; the example's is at example.com under the document's id", () => true],
  ["relievers[0].email", "emails are first.last@<organisation's domain>; the example's is at example.com", () => true],
  ["maxLeaveDays", "an employee's live days of the type in one year already exceed the example's budget (checked below)", (today) => overBudget(today)],
  ...DATE_FIELDS.map((field): [string, string, (today: string) => boolean] => [field, `the example's dates (${start}, asked ${asked}) lie outside the records' window for this today`, (today) => !datesHold(today)]),
];

/** Whether some employee's Submitted, Pending and Approved days of the example leave type in one year exceed the example's maxLeaveDays: then the data keeps its own budget. */
function overBudget(today: string): boolean {
  const org = mocks.get(today)!.dataset.organizations[0];
  const days = new Map<string, number>();
  for (const r of org.leaveRequests) {
    if (r.leaveTypeId !== exampleIds.leaveType || r.statusId > 2) continue;
    const key = `${r.employeeId}|${r.startDate.slice(0, 4)}`;
    days.set(key, (days.get(key) ?? 0) + r.days);
  }
  return Math.max(0, ...days.values()) > exampleRecords.leaveType.maxLeaveDays;
}

/** The paths (a.b[0].c) where the answer's record differs from the example's. */
function differences(want: unknown, got: unknown, at = ""): string[] {
  if (want && typeof want === "object") {
    if (!got || typeof got !== "object") return [at];
    return Object.entries(want).flatMap(([key, value]) => differences(value, (got as any)[key], Array.isArray(want) ? `${at}[${key}]` : at ? `${at}.${key}` : key));
  }
  return Object.is(want, got) ? [] : [at];
}

const listRequests = requests.filter(([, { example }]) => Array.isArray(example?.data?.data));
/** The example's records that are example records (an id of exampleIds): what a case holds the answer to. */
const exampleRecordsOf = (example: any): Record<string, unknown>[] =>
  (Array.isArray(example.data.data) ? example.data.data : [example.data]).filter((item: Record<string, unknown>) => Object.values(exampleIds).includes(item.id as never));
// Examples that name no example record (a balance's) have nothing to hold here: their statuses are held above.
const cases = TODAYS.flatMap((today) => requests.filter(([, { example }]) => example?.data && exampleRecordsOf(example).length > 0).map(([name, request]) => [`${name} (today ${today})`, { today, ...request }] as const));

describe("the example records carry the examples' values where the data allows", () => {
  it.each(cases)("%s: the example's records show the example's values", async (_, { today, url, example }) => {
    const { body } = await get(today, url);
    const records = exampleRecordsOf(example);
    expect(records.length, `${url}: the example names an example record`).toBeGreaterThan(0);
    for (const want of records) {
      let got = Array.isArray(example.data.data) ? body.data.data.find((x: { id: string }) => x.id === want.id) : body.data;
      if (got === undefined && url.startsWith("/v1/employee/list")) got = await employeeOnItsPage(today, url, String(want.id));
      if (got === undefined && url.startsWith("/v1/leaverequest/list") && !datesHold(today)) got = (await get(today, undated(url))).body.data.data.find((x: { id: string }) => x.id === want.id);
      expect(got, `${url}: the page holds ${want.id}`).toBeDefined();
      const expected = kept.filter(([, , applies]) => applies(today)).map(([field]) => field);
      const found = differences(want, got);
      for (const field of found) expect(expected, `${url} ${want.id} field ${field}: want ${JSON.stringify(field.split(/[.[\]]+/).filter(Boolean).reduce((o: any, k) => o?.[k], want))}, got ${JSON.stringify(field.split(/[.[\]]+/).filter(Boolean).reduce((o: any, k) => o?.[k], got))}`).toContain(field);
    }
  });

  it.each(TODAYS)("today %s: a kept link and email keep the example's name at the organisation's domain", async (today) => {
    const { body } = await get(today, `/v1/leaverequest/details/${exampleIds.leaveRequest}`);
    const [document] = exampleRecords.leaveRequest.documents;
    expect(body.data.documents[0].document, "the document's link").toMatch(new RegExp(`^https://files\\.[a-z.]+/leave/${exampleIds.leaveRequest}/${document.name.replace(/\./g, "\\.")}$`));
    expect(body.data.relievers[0].email.split("@")[0], "the reliever's email").toBe(exampleRecords.leaveRequest.relievers[0].email.split("@")[0]);
  });
});

/**
 * The employee list orders by code: the example's EMP-0042 has more than a page of Active employees
 * before it (codes are given in order of hiring; the example shows it alone on page 1 of 25), so the
 * record is on the page its code puts it; the example's page is not empty.
 */
async function employeeOnItsPage(today: string, url: string, id: string): Promise<unknown> {
  const all = (await get(today, "/v1/employee/list?Status=Active&PageSize=100&PageNumber=1")).body.data.data as { id: string }[];
  const rank = all.findIndex((e) => e.id === id);
  expect(rank, `the example employee ${id} is Active`).toBeGreaterThanOrEqual(0);
  const size = Number(new URL(url, "http://x").searchParams.get("PageSize"));
  expect(rank, `the example employee is on page 1 of ${size}: the example's code could have been kept there`).toBeGreaterThanOrEqual(size);
  const page = (await get(today, `/v1/employee/list?Status=Active&PageSize=${size}&PageNumber=${Math.floor(rank / size) + 1}`)).body.data.data as { id: string }[];
  return page.find((e) => e.id === id);
}

describe("each list asked with all its examples at once answers a page holding the example record", () => {
  const listCases = TODAYS.flatMap((today) => listRequests.map(([name, request]) => [`${name} (today ${today})`, { today, ...request }] as const));
  it.each(listCases)("%s", async (_, { today, url, example }) => {
    const { status, body } = await get(today, url);
    expect(status, `${url}: ${body.message}`).toBe(200);
    const wanted = example.data.data.map((item: { id: string }) => item.id);
    const ids = body.data.data.map((item: { id: string }) => item.id);
    if (url.startsWith("/v1/employee/list")) {
      // See employeeOnItsPage: the code puts the record on a later page.
      expect(ids.length, `${url}: the page is not empty`).toBeGreaterThan(0);
      return;
    }
    if (url.startsWith("/v1/leaverequest/list") && !datesHold(today)) {
      // The example's StartDate and EndDate name December 2026, before this today's records begin: the page is empty, and without them it holds the record.
      expect(ids, `${url}: no request of 2026 for today ${today}`).toEqual([]);
      const again = await get(today, undated(url));
      expect(again.body.data.data.map((item: { id: string }) => item.id), undated(url)).toEqual(expect.arrayContaining(wanted));
      return;
    }
    expect(ids, `${url}: the page holds the example's records`).toEqual(expect.arrayContaining(wanted));
  });
});
