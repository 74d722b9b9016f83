// Each row of the assumptions table in ../shared/design.md is marked in the specs with an
// `x-assumption` where the package makes the choice, saying what it chose.
import { describe, expect, it } from "vitest";
import { deref, effective, flatten, loadAsyncApi, loadOpenApi, resolvePointer } from "../../scripts/lib/spec-document.js";

const documents = { openapi: loadOpenApi(), asyncapi: loadAsyncApi() };
type Document = keyof typeof documents;

interface Given {
  document: Document;
  /** JSON pointer into the bundled document. */
  pointer: string;
}
interface Want {
  /** Words the x-assumption sentence must contain (case-insensitive), so the mark says the choice. */
  says: string[];
  /** A value the spec must also carry at a pointer, where the choice is machine-readable. */
  value?: { pointer: string; is: unknown };
}
type Case = [string, { given: Given; want: Want }];

const api = (pointer: string): Given => ({ document: "openapi", pointer });
const events = (pointer: string): Given => ({ document: "asyncapi", pointer });

/** The rows of design.md's table, in its order. */
const rows: Case[] = [
  ["failure status: invalid parameter is 400", { given: api("/components/responses/BadRequest"), want: { says: ["HTTP 400"] } }],
  ["failure status: missing or unknown key is 401", { given: api("/components/responses/Unauthorized"), want: { says: ["HTTP 401"] } }],
  ["failure status: key lacking the permission is 403", { given: api("/components/responses/Forbidden"), want: { says: ["HTTP 403"] } }],
  ["failure status: unknown or another organisation's id is 404", { given: api("/components/responses/NotFound"), want: { says: ["HTTP 404", "another organisation"] } }],
  ["failure status: rate limit is 429", { given: api("/components/responses/TooManyRequests"), want: { says: ["HTTP 429"] } }],
  [
    "every failure is the envelope with isSuccessful false, a non-\"00\" code and a message naming the cause and parameter",
    {
      given: api("/components/schemas/FailureEnvelope"),
      want: { says: ["isSuccessful false", '"00"', "message naming the cause and the parameter"], value: { pointer: "/components/schemas/FailureEnvelope/properties/isSuccessful/const", is: false } },
    },
  ],
  [
    "largest PageSize is 100; above it or below 1 is a 400",
    { given: api("/components/parameters/PageSize"), want: { says: ["100", "below 1", "400"], value: { pointer: "/components/parameters/PageSize/schema/maximum", is: 100 } } },
  ],
  ["a page past the end is 200, empty data, true totals", { given: api("/components/parameters/PageNumber"), want: { says: ["past the end", "empty data", "true totals"] } }],
  ["StartDate without EndDate (or the reverse) is a 400", { given: api("/components/parameters/StartDate"), want: { says: ["StartDate without EndDate", "EndDate without StartDate", "400"] } }],
  ["EndDate without StartDate is a 400", { given: api("/components/parameters/EndDate"), want: { says: ["EndDate without StartDate", "400"] } }],
  ["LeaveStatus: names in any letter case, or 0 to 5; anything else is a 400", { given: api("/components/parameters/LeaveStatus"), want: { says: ["any letter case", "0 to 5", "400"] } }],
  [
    "leave type list without EligibilityCriteria: the documented default 0, organisation-wide only",
    {
      given: api("/components/parameters/EligibilityCriteriaFilter"),
      want: { says: ["default 0", "organisation-wide"], value: { pointer: "/components/parameters/EligibilityCriteriaFilter/schema/default", is: 0 } },
    },
  ],
  ["daysRemaining is totalDays − daysTaken − leavePending, never below 0", { given: api("/components/schemas/LeaveBalance/properties/daysRemaining"), want: { says: ["totalDays minus daysTaken minus leavePending", "never below 0"] } }],
  ["totalDays is maxLeaveDays plus carried days (at most maxCarryForwardLimit) until the expiry month", { given: api("/components/schemas/LeaveBalance/properties/totalDays"), want: { says: ["maxLeaveDays", "maxCarryForwardLimit", "expiry month"] } }],
  ["days of a request: working days, no weekends, holidays or days off", { given: api("/components/schemas/LeaveRequestSummary/properties/days"), want: { says: ["startDate to endDate", "weekends", "holidays", "days off"] } }],
  [
    "the employee list needs Employee Management: View",
    {
      given: api("/paths/~1v1~1employee~1list/get"),
      want: { says: ["Employee Management: View"], value: { pointer: "/paths/~1v1~1employee~1list/get/x-permission", is: "Employee Management: View" } },
    },
  ],
  ["rate limit: 300 requests in any rolling 60 seconds per key, answered 429", { given: api("/components/responses/TooManyRequests"), want: { says: ["300 requests in any rolling 60 seconds per key", "429"] } }],
  ["rate limit: Retry-After in whole seconds until a request would be accepted", { given: api("/components/headers/Retry-After"), want: { says: ["whole seconds", "would accept"] } }],
  [
    "retry schedule of webhook deliveries: a backoff that spans two days",
    {
      given: events("/operations/sendWebhookEvent"),
      want: { says: ["at most 9 times", "5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 14 h", "two days"], value: { pointer: "/operations/sendWebhookEvent/x-retry-schedule-seconds", is: [0, 5, 300, 1800, 7200, 18000, 36000, 36000, 50400] } },
    },
  ],
  [
    "leave.cancelled status is Abandoned",
    { given: events("/components/schemas/LeaveCancelledData/properties/status"), want: { says: ["Abandoned"], value: { pointer: "/components/schemas/LeaveCancelledData/properties/status/const", is: "Abandoned" } } },
  ],
];

describe("each row of design.md's assumptions table is marked where the package makes the choice", () => {
  it.each(rows)("%s", (_name, { given, want }) => {
    const doc = documents[given.document];
    const node = deref(doc, resolvePointer(doc, `#${given.pointer}`));
    const mark = node["x-assumption"];
    expect(typeof mark, `${given.document} ${given.pointer} has no x-assumption`).toBe("string");
    for (const words of want.says) {
      expect(mark.toLowerCase(), `${given.document} ${given.pointer}: the x-assumption must say "${words}"`).toContain(words.toLowerCase());
    }
    if (want.value) expect(resolvePointer(doc, `#${want.value.pointer}`), `${given.document} ${want.value.pointer}`).toEqual(want.value.is);
  });
});

describe("data of events other than leave.approved: ids and a status, never pay, bank details or notes", () => {
  const doc = documents.asyncapi;
  const messages = Object.values<any>(doc.components.messages).filter((m) => m.name !== "leave.approved");

  it.each(messages.map((m) => [m.name, m] as [string, any]))("%s data is marked and holds ids and a status or stage", (_name, message) => {
    const data = deref(doc, effective(doc, flatten(doc, message.payload).properties.data));
    expect(data["x-assumption"], `${message.name}: data has no x-assumption`).toMatch(/^The data of .+ holds .+, since the provider does not show it\.$/);
    const fields = Object.entries<any>(data.properties ?? {}).map(([name, schema]) => [name, effective(doc, schema)] as const);
    const ids = fields.filter(([name, schema]) => name.endsWith("Id") && schema.format === "uuid");
    expect(ids.length, `${message.name}: data names the record and the records it ties to by uuid`).toBeGreaterThan(0);
    const others = fields.filter(([name]) => !name.endsWith("Id")).map(([name]) => name);
    // Beyond ids: a status name, a stage name, the kind of request approved, or the Test action's note.
    expect(others.filter((n) => !["status", "stage", "requestType", "message"].includes(n)), `${message.name}: data fields other than ids, status, stage, requestType and message`).toEqual([]);
  });
});
