// The memory all worlds' journals share: bounded in bytes whatever the URLs' length, the oldest
// entries of the largest journal going first, a quiet world keeping its own; a URL kept to its first
// 2 KB with a flag that says so; verify's messages right about a journal the budget emptied; the
// option and the flag refusing a bad value with one sentence.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { call } from "../sandboxes/support.js";
import { mockLimits } from "../../generated/control-facts.js";
import { startMock, type RunningMock } from "../../mock/index.js";
import { createHandlers } from "../../mock/msw/index.js";
import { loadSpec, type LoadedSpec } from "../../mock/kernel/spec.js";
import { JournalBudget } from "../../mock/worlds/journal/budget.js";
import { entryBytes } from "../../mock/worlds/journal/entry.js";
import { Journal, type JournalEntry } from "../../mock/worlds/journal/journal.js";
import { verifyJournal } from "../../mock/worlds/journal/verify.js";

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpec();
});

function entry(n: number, urlLength = 100): JournalEntry {
  const url = `/v1/leaverequest/list?n=${n}&pad=`;
  return { at: Date.now(), method: "GET", url: url + "x".repeat(Math.max(0, urlLength - url.length)), urlTruncated: false, operationId: "listLeaveRequests", caller: "org 1, leave only", status: 200, violations: undefined, nearest: undefined, durationMs: 1, body: undefined };
}

const numbers = (journal: Journal) => [...journal.newestFirst()].map((e) => Number(/n=(\d+)/.exec(e.url)![1]));
const sumOf = (journals: Journal[]) => journals.reduce((sum, j) => sum + j.bytes, 0);
/** What one entry of entry(n) weighs (n below 10: one digit). */
const ONE = entryBytes(entry(0));

describe("the budget", () => {
  test("holds all journals together within its bytes, after every request, whatever the URLs' length", () => {
    const budget = new JournalBudget(50 * ONE);
    const journals = [new Journal(1000, budget), new Journal(1000, budget), new Journal(1000, budget)];
    const over: string[] = [];
    for (let n = 0; n < 3000; n++) {
      journals[n % 3].record(entry(n, 100 + (n % 7) * 300));
      if (budget.bytes > budget.limitBytes) over.push(`after request ${n}: ${budget.bytes} bytes of ${budget.limitBytes}`);
      if (budget.bytes !== sumOf(journals)) over.push(`after request ${n}: the budget counts ${budget.bytes}, the journals hold ${sumOf(journals)}`);
    }
    expect(over, "the budget's count and bound after each request").toEqual([]);
    expect(journals.map((j) => j.size).every((size) => size > 0), "every journal keeps its newest requests").toBe(true);
  });

  test("takes the oldest entries of the journal holding the most; a quiet journal keeps all of its own", () => {
    const budget = new JournalBudget(10 * ONE);
    const quiet = new Journal(1000, budget);
    const busy = new Journal(1000, budget);
    for (let n = 1; n <= 3; n++) quiet.record(entry(n));
    for (let n = 1; n <= 9; n++) busy.record(entry(n));
    expect({ quiet: numbers(quiet), busy: numbers(busy) }).toEqual({ quiet: [3, 2, 1], busy: [9, 8, 7, 6, 5, 4, 3] });
    expect({ quiet: quiet.dropped, busy: busy.dropped }, "what each let go").toEqual({ quiet: 0, busy: 2 });
  });

  test("once the busy journal is no longer the largest, the other gives up its oldest in turn", () => {
    const budget = new JournalBudget(4 * ONE);
    const a = new Journal(1000, budget);
    const b = new Journal(1000, budget);
    for (let n = 1; n <= 4; n++) a.record(entry(n));
    for (let n = 5; n <= 8; n++) b.record(entry(n));
    expect({ a: numbers(a), b: numbers(b) }).toEqual({ a: [4, 3], b: [8, 7] });
  });

  test("counts what a journal's own bound lets go, and gives back what a cleared journal held", () => {
    const budget = new JournalBudget(1000 * ONE);
    const small = new Journal(3, budget);
    const other = new Journal(100, budget);
    for (let n = 1; n <= 9; n++) small.record(entry(n));
    other.record(entry(1));
    expect(budget.bytes, "three entries of the small journal and one of the other").toBe(4 * ONE);
    expect(small.clear()).toBe(3);
    expect({ budget: budget.bytes, small: small.bytes }).toEqual({ budget: ONE, small: 0 });
  });

  test("a journal that leaves (its sandbox deleted) keeps its entries but no longer counts or is taken from", () => {
    const budget = new JournalBudget(4 * ONE);
    const deleted = new Journal(100, budget);
    const live = new Journal(100, budget);
    for (let n = 1; n <= 3; n++) deleted.record(entry(n));
    deleted.detach();
    expect(budget.bytes).toBe(0);
    for (let n = 1; n <= 4; n++) live.record(entry(n));
    expect({ deleted: numbers(deleted), live: numbers(live), budget: budget.bytes }).toEqual({ deleted: [3, 2, 1], live: [4, 3, 2, 1], budget: 4 * ONE });
    deleted.record(entry(9));
    expect(budget.bytes, "a request that was on its way when the sandbox went is not counted").toBe(4 * ONE);
  });

  test("an entry weighs more with a longer URL, a body and findings", () => {
    const plain = entry(1, 100);
    const cases: [string, JournalEntry][] = [
      ["a longer URL", entry(1, 2000)],
      ["a body", { ...plain, body: { text: '{"type":"leave.approved"}', bytes: 25, truncated: false } }],
      ["a finding", { ...plain, violations: [{ kind: "parameter", name: "PageSize", message: "Invalid parameter PageSize: must be at most 100." }] }],
      ["nearest operations", { ...plain, operationId: undefined, nearest: ["listLeaveRequests"] }],
    ];
    for (const [name, heavier] of cases) expect(entryBytes(heavier), name).toBeGreaterThan(entryBytes(plain));
  });
});

describe("verify, on a journal the budget emptied", () => {
  const budget = new JournalBudget(4 * ONE);
  const emptied = new Journal(1000, budget);
  const busy = new Journal(1000, budget);
  // One long request, then a busy world's short ones: the long one's journal is the largest when the budget runs out.
  emptied.record(entry(1, 100 + 2 * ONE));
  for (let n = 2; n <= 3; n++) busy.record(entry(n));

  test("says the requests were dropped for the shared memory, not that none came", async () => {
    expect({ size: emptied.size, dropped: emptied.dropped }).toEqual({ size: 0, dropped: 1 });
    const message = await verifyJournal(emptied, { operationId: "listLeaveRequests" }, undefined, spec.byOperationId).then(
      () => "verified",
      (error: Error) => error.message,
    );
    expect(message).toBe(
      `Expected listLeaveRequests (GET /v1/leaverequest/list) to be received at least once; it was received 0 times (0 requests in the journal, 1 older one dropped to keep all worlds' journals within ` +
        `${(4 * ONE).toLocaleString("en")} bytes).\nThe journal holds none of its requests now: every one was dropped.`,
    );
  });

  test("a journal at its own bound says that bound", async () => {
    const ring = new Journal(2, new JournalBudget(100 * ONE));
    for (let n = 1; n <= 3; n++) ring.record(entry(n));
    const message = await verifyJournal(ring, { operationId: "listLeaveTypes" }, undefined, spec.byOperationId).catch((error: Error) => error.message);
    expect(message).toContain("(2 requests in the journal, 1 older one dropped at its bound of 2).");
  });
});

describe("through the mock", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, rateLimit: "off", journalMemoryMb: 1, log: false });
  });
  afterAll(async () => {
    await mock.close();
  });

  /** A list request whose URL is `length` characters long, numbered by PageNumber. */
  const longUrl = (n: number, length: number) => {
    const start = `/v1/leaverequest/list?PageNumber=${n}&pad=`;
    return start + "x".repeat(length - start.length);
  };
  const send = async (key: string, paths: string[]) => {
    for (let i = 0; i < paths.length; i += 10) {
      const answers = await Promise.all(paths.slice(i, i + 10).map((path) => fetch(mock.url + path, { headers: { authorization: `Bearer ${key}` } }).then(async (r) => (await r.arrayBuffer(), r.status))));
      const failed = answers.filter((status) => status !== 200);
      if (failed.length > 0) throw new Error(`requests answered ${failed.join(", ")}`);
    }
  };

  test(`keeps a URL to its first ${mockLimits.journalUrlBytes.toLocaleString("en")} bytes and says it was cut, in requests() and GET /_mock/requests`, async () => {
    const sandbox = await mock.createSandbox({ label: "long URLs" });
    await send(sandbox.key.org1Full, [longUrl(1, 3 * mockLimits.journalUrlBytes), "/v1/leaverequest/list?PageNumber=2"]);
    const [short, long] = await sandbox.requests({ operationId: "listLeaveRequests" });
    const kept = longUrl(1, 3 * mockLimits.journalUrlBytes).slice(0, mockLimits.journalUrlBytes);
    expect({ urlTruncated: long.urlTruncated, path: long.path, query: long.query }).toEqual({ urlTruncated: true, path: "/v1/leaverequest/list", query: { PageNumber: "1", pad: kept.slice(kept.indexOf("pad=") + 4) } });
    expect({ urlTruncated: short.urlTruncated, query: short.query }).toEqual({ urlTruncated: false, query: { PageNumber: "2" } });
    const listed = await call(mock.url, sandbox.key.org1WebhooksAdmin, "GET", "/_mock/requests?operationId=listLeaveRequests");
    expect(listed.body.data.requests.map((r: { urlTruncated: boolean }) => r.urlTruncated)).toEqual([false, true]);
    await sandbox.delete();
  });

  test("a sandbox flooding the journals loses its own oldest requests; a quiet sandbox keeps all of its own", async () => {
    const quiet = await mock.createSandbox({ label: "quiet" });
    const flood = await mock.createSandbox({ label: "flood" });
    await send(quiet.key.org1Full, [1, 2, 3].map((n) => `/v1/leaverequest/list?PageNumber=${n}`));
    // 1 MB holds fewer than 500 entries with a URL cut to 2 KB.
    const sent = 600;
    await send(flood.key.org1Full, Array.from({ length: sent }, (_, n) => longUrl(n + 1, 2 * mockLimits.journalUrlBytes)));
    expect((await quiet.requests()).map((r) => r.query.PageNumber), "the quiet sandbox's requests").toEqual(["3", "2", "1"]);
    const listed = (await call(mock.url, flood.key.org1WebhooksAdmin, "GET", "/_mock/requests?operationId=listLeaveRequests&limit=1000")).body.data;
    const pages = listed.requests.map((r: { query: { PageNumber: string } }) => Number(r.query.PageNumber));
    expect(pages.length, "the flood's journal holds some of its requests, not all").toBeGreaterThan(0);
    expect(pages.length).toBeLessThan(sent);
    expect(pages, "the newest kept, the oldest gone").toEqual(Array.from({ length: pages.length }, (_, i) => sent - i));
    expect({ capacity: listed.capacity, dropped: listed.dropped }).toEqual({ capacity: mockLimits.journalPerWorld, dropped: sent - pages.length });
    const message = await flood.verify({ operationId: "listLeaveRequests", query: { PageNumber: 1 } }).catch((error: Error) => error.message);
    expect(message).toContain(`, ${sent - pages.length} older ones dropped to keep all worlds' journals within 1 MB).`);
    await quiet.delete();
    await flood.delete();
  }, 60_000);

  test("a deleted sandbox's journal, out of the budget, still answers its handle", async () => {
    const sandbox = await mock.createSandbox({ label: "deleted" });
    await send(sandbox.key.org1Full, ["/v1/leavetype/list"]);
    await sandbox.delete();
    expect((await sandbox.requests()).map((r) => r.path)).toEqual(["/v1/leavetype/list"]);
  });
});

describe("the option and the flag", () => {
  test("startMock and createHandlers refuse a journalMemoryMb that is not a whole number of megabytes in bounds, naming it", async () => {
    const sentence = `journalMemoryMb must be a whole number of megabytes from 1 to ${mockLimits.maxJournalMemoryMb}`;
    await expect(startMock({ port: 0, journalMemoryMb: 0 })).rejects.toThrow(`${sentence}, got 0`);
    expect(() => createHandlers({ journalMemoryMb: 1.5 })).toThrow(`${sentence}, got 1.5`);
    expect(() => createHandlers({ journalMemoryMb: mockLimits.maxJournalMemoryMb + 1 })).toThrow(`${sentence}, got ${mockLimits.maxJournalMemoryMb + 1}`);
  });
});
