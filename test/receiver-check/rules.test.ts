// The pure parts of the receiver check: how an answer is graded (a table), and what it builds from
// the AsyncAPI document (bodies from the examples with fresh ids, a type the catalogue does not
// name, two types about one record).
import { describe, expect, it } from "vitest";
import asyncapi from "../../generated/asyncapi.json" with { type: "json" };
import { webhookEventTypes } from "../../generated/events.js";
import { gradeAnswer, type Answer, type Want } from "../../src/contract/receiver/grade.js";
import { createRecords, occurredAtOf, oneRecordPair, readEventsDocument, unnamedType } from "../../src/contract/receiver/events.js";
import { bodyProblems } from "./support.js";

describe("grading one answer", () => {
  const cases: [string, { given: { want: Want; answer: Answer }; want: { ok: boolean; reason: string } }][] = [
    ["a 2xx taken", { given: { want: "accepted", answer: { status: 204, ms: 5 } }, want: { ok: true, reason: "answered 204" } }],
    ["a 500 where a 2xx is the rule", { given: { want: "accepted", answer: { status: 500, ms: 5, body: "oops\n" } }, want: { ok: false, reason: "answered 500 (body: oops); the provider's rule is a 2xx" } }],
    ["a 2xx after 10 s", { given: { want: "accepted", answer: { status: 200, ms: 10_001 } }, want: { ok: false, reason: "answered 200 after 10001 ms: slower than 10 s counts as a failure" } }],
    ["a 2xx at 10 s exactly", { given: { want: "accepted", answer: { status: 200, ms: 10_000 } }, want: { ok: true, reason: "answered 200" } }],
    ["a redirect, wanted taken", { given: { want: "accepted", answer: { status: 301, ms: 1 } }, want: { ok: false, reason: "answered 301: redirects are not followed, a 3xx counts as a failure" } }],
    ["a redirect, wanted refused", { given: { want: "rejected", answer: { status: 307, ms: 1 } }, want: { ok: false, reason: "answered 307: redirects are not followed, a 3xx counts as a failure" } }],
    ["a 400 refusal", { given: { want: "rejected", answer: { status: 400, ms: 1, body: '{"error":"timestamp_too_old"}' } }, want: { ok: true, reason: 'answered 400 (body: {"error":"timestamp_too_old"})' } }],
    ["a 401 refusal", { given: { want: "rejected", answer: { status: 401, ms: 1 } }, want: { ok: false, reason: "answered 401; the provider's rule is 400" } }],
    ["a forged delivery taken", { given: { want: "rejected", answer: { status: 200, ms: 1 } }, want: { ok: false, reason: "answered 200: it took a delivery whose signature check fails; the provider's rule is 400" } }],
    ["no answer in time", { given: { want: "accepted", answer: { ms: 10_000, timedOut: true } }, want: { ok: false, reason: "no answer within 10 s; a slower answer counts as a failure" } }],
    ["a network error", { given: { want: "rejected", answer: { ms: 3, error: "ECONNRESET" } }, want: { ok: false, reason: "no answer: ECONNRESET" } }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(gradeAnswer(given.want, given.answer)).toEqual(want);
  });
});

describe("bodies from the AsyncAPI document", () => {
  const doc = readEventsDocument(asyncapi);

  it("has an example of every named type, and the receiver's address from the server's defaults", () => {
    expect([...doc.examples.keys()].sort()).toEqual([...webhookEventTypes].sort());
    expect(doc.endpointUrl).toBe("https://hooks.example.com/webhooks/hr");
    expect(doc.totalTypes).toBe(asyncapi.channels.webhookEndpoint["x-event-types-total"]);
  });

  it("refuses a document whose message has no example", () => {
    const copy = structuredClone(asyncapi) as any;
    delete copy.components.messages.payrollPaid.examples;
    expect(() => readEventsDocument(copy)).toThrow("the AsyncAPI document has no example body for payroll.paid");
  });

  it("gives each body a fresh id and occurredAt, the example's data with fresh record ids, the same within one set of records", () => {
    let n = 0;
    const newId = () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
    const records = createRecords(doc, newId);
    const at = Date.UTC(2026, 9, 15, 9, 30, 0, 123);
    const approved = records.event("leave.approved", at);
    const cancelled = records.event("leave.cancelled", at + 1000);
    const example = doc.examples.get("leave.approved")!;
    expect(approved.occurredAt).toBe("2026-10-15T09:30:00.1230000Z");
    expect(approved.id).not.toBe(example.id);
    expect(approved.data.leaveRequestId, "a fresh record id").not.toBe(example.data.leaveRequestId);
    expect(cancelled.data.leaveRequestId, "the same request in one set of records").toBe(approved.data.leaveRequestId);
    expect(approved.data.startDate, "data that is not an id stays the example's").toBe(example.data.startDate);
    expect(createRecords(doc, newId).event("leave.approved", at).data.leaveRequestId, "another set: another request").not.toBe(approved.data.leaveRequestId);
    for (const body of [approved, cancelled]) expect(bodyProblems(body)).toEqual([]);
  });

  it("names a type the catalogue does not, like its names: a record of one group with another type's verb", () => {
    const { type, like } = unnamedType();
    expect({ type, like }).toEqual({ type: "approval.stage_changed", like: "approval.completed" });
    expect(webhookEventTypes).not.toContain(type);
    expect(bodyProblems(createRecords(doc, () => crypto.randomUUID()).event(type, Date.now(), like)), "a valid envelope").toEqual([]);
  });

  it("takes the out-of-order pair from the record most types are about", () => {
    expect(oneRecordPair(doc)).toEqual(["leave.approved", "leave.cancelled"]);
  });

  it("writes occurredAt with the 7 fractional digits the schema's pattern asks for", () => {
    expect(occurredAtOf(0)).toBe("1970-01-01T00:00:00.0000000Z");
    expect(occurredAtOf(Date.UTC(2026, 0, 2, 3, 4, 5, 6))).toMatch(new RegExp(asyncapi.components.schemas.OccurredAt.pattern));
  });
});
