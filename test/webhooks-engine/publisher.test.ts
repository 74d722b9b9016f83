// Publishing without a lane or a socket: the publisher builds the event, checks it against its
// AsyncAPI message schema and hands each delivery to `deliver`. Every type takes the same path;
// webhook.test differs only in the audience its trigger names (the one endpoint, whatever its selection).
import { describe, expect, test } from "vitest";
import type { WebhookEvent, WebhookEventType } from "../../generated/events.js";
import { LeaveStatusIdByName } from "../../generated/facts.js";
import { createDataset } from "../../mock/data/dataset.js";
import { EndpointRegistry, type Endpoint, type EndpointInput } from "../../mock/webhooks/endpoints.js";
import { createPublisher } from "../../mock/webhooks/publisher.js";
import { eventProblems } from "../../mock/kernel/json-schema.js";

const dataset = createDataset({ seed: 3, scale: 0.1 });
const org = dataset.organizations[0];

/** A publisher over a registry with the given endpoints (named by their position: e0, e1, ...). */
function harness(endpoints: EndpointInput[], duplicateRate = 0) {
  const registry = new EndpointRegistry({ strictUrls: false, maxPerOrganisation: 10 });
  const added = endpoints.map((input) => {
    const result = registry.add(org.id, input);
    if (!result.ok) throw new Error(result.reason.message);
    return result.value.endpoint;
  });
  const name = (endpoint: Endpoint) => `e${added.indexOf(endpoint)}`;
  const delivered: Array<{ to: string; duplicate: boolean; event: WebhookEvent; body: string }> = [];
  const errors: string[] = [];
  let n = 0;
  const publish = createPublisher({
    dataset,
    endpoints: (organizationId) => registry.list(organizationId),
    deliver: (endpoint, event, body, duplicate) => {
      delivered.push({ to: name(endpoint), duplicate, event, body: body.toString("utf8") });
      return { endpointId: endpoint.id, url: endpoint.url.href, duplicate };
    },
    duplicateRate,
    random: () => 0.5,
    newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
    occurredAt: () => "2026-10-15T09:50:11.4821234Z",
    now: () => new Date("2026-10-15T09:50:11Z"),
    reportError: (line) => errors.push(line),
  });
  return { publish, added, delivered, errors };
}

const ALL: EndpointInput = { url: "http://127.0.0.1:1/all" };
const LEAVE_ONLY: EndpointInput = { url: "http://127.0.0.1:1/leave", events: ["leave.approved"] };
const PAYROLL_ONLY: EndpointInput = { url: "http://127.0.0.1:1/payroll", events: ["payroll.paid"] };

describe("who gets an event", () => {
  // [name, { given: endpoints, type, id (a function of the endpoints), duplicate rate }, want: deliveries as [endpoint, duplicate]]
  type Given = { endpoints: EndpointInput[]; type: WebhookEventType; id?: (added: Endpoint[]) => string; duplicateRate?: number };
  const cases: Array<[string, { given: Given; want: Array<[string, boolean]> }]> = [
    ["payroll.paid: every endpoint subscribed to its type, oldest first", { given: { endpoints: [ALL, LEAVE_ONLY, PAYROLL_ONLY], type: "payroll.paid" }, want: [["e0", false], ["e2", false]] }],
    ["no endpoint subscribed: nothing is delivered", { given: { endpoints: [LEAVE_ONLY], type: "payroll.paid" }, want: [] }],
    ["webhook.test: only the endpoint it names, whatever its selection", { given: { endpoints: [ALL, LEAVE_ONLY], type: "webhook.test", id: (a) => a[1].id }, want: [["e1", false]] }],
    ["webhook.test without an id: the oldest endpoint", { given: { endpoints: [LEAVE_ONLY, ALL], type: "webhook.test" }, want: [["e0", false]] }],
    ["duplicate rate 1: each delivery twice, the second marked", { given: { endpoints: [ALL, PAYROLL_ONLY], type: "payroll.paid", duplicateRate: 1 }, want: [["e0", false], ["e0", true], ["e1", false], ["e1", true]] }],
    ["duplicate rate 1 applies to webhook.test too", { given: { endpoints: [ALL], type: "webhook.test", duplicateRate: 1 }, want: [["e0", false], ["e0", true]] }],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    const h = harness(given.endpoints, given.duplicateRate);
    const result = h.publish(org, { type: given.type, id: given.id?.(h.added) });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(h.delivered.map((d) => [d.to, d.duplicate])).toEqual(want);
    if (!result.ok) return;
    expect(result.value.deliveries, "the result lists each delivery queued").toHaveLength(want.length);
    for (const d of h.delivered) {
      expect(d.body, "the bytes delivered are the event as returned").toBe(JSON.stringify(result.value.event));
      expect(eventProblems(d.event), "the event meets its message schema").toEqual([]);
    }
  });
});

describe("refusals are reasons, and nothing is delivered", () => {
  type Given = { endpoints: EndpointInput[]; type: WebhookEventType; id?: string };
  const cases: Array<[string, { given: Given; want: { kind: string; field?: string; message: RegExp } }]> = [
    ["webhook.test to an unknown endpoint", { given: { endpoints: [ALL], type: "webhook.test", id: "00000000-0000-4000-8000-0000000000aa" }, want: { kind: "not-found", field: "id", message: /no webhook endpoint with id/ } }],
    ["webhook.test with no endpoint at all", { given: { endpoints: [], type: "webhook.test" }, want: { kind: "conflict", message: /no webhook endpoint to test/ } }],
    ["leave.approved of an unknown request", { given: { endpoints: [ALL], type: "leave.approved", id: "00000000-0000-4000-8000-0000000000bb" }, want: { kind: "not-found", field: "id", message: /0000000000bb/ } }],
    ["loan.disbursed to an unknown employee", { given: { endpoints: [ALL], type: "loan.disbursed", id: "00000000-0000-4000-8000-0000000000cc" }, want: { kind: "not-found", field: "id", message: /no employee with id/ } }],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    const h = harness(given.endpoints);
    const version = dataset.version;
    const result = h.publish(org, { type: given.type, id: given.id });
    expect(result).toMatchObject({ ok: false, reason: { kind: want.kind, ...(want.field ? { field: want.field } : {}) } });
    if (!result.ok) expect(result.reason.message).toMatch(want.message);
    expect(h.delivered, "nothing delivered").toEqual([]);
    expect(dataset.version, "the dataset is unchanged").toBe(version);
  });
});

test("a leave.approved event changes the dataset first and carries the approved request", () => {
  const h = harness([ALL]);
  const version = dataset.version;
  const result = h.publish(org, { type: "leave.approved" });
  if (!result.ok) throw new Error(`refused: ${result.reason.message}`);
  const event = result.value.event as WebhookEvent & { data: { leaveRequestId: string; status: string } };
  expect(event).toMatchObject({ type: "leave.approved", organizationId: org.id, occurredAt: "2026-10-15T09:50:11.4821234Z", data: { status: "Approved" } });
  expect(dataset.version).toBe(version + 1);
  expect(org.index.leaveRequestById.get(event.data.leaveRequestId)?.statusId, "the request is Approved in the dataset").toBe(LeaveStatusIdByName.Approved);
});
