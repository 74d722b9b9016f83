// The README's edge-runtime snippet runs as written: its fetch handler, given fetch API Requests as
// a Worker receives them, accepts a signed delivery and answers 400 with the reason otherwise.
// (test/webhooks/entry-points.test.ts type-checks it without Node's types.)
import { afterEach, describe, expect, it, vi } from "vitest";
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, sign } from "../../src/webhooks/node/index.js";
import vectorFile from "../webhooks/signature-vectors.json" with { type: "json" };
import worker from "./edge-snippet.js";

const SECRET = "whsec_edge_snippet_test";
const body = vectorFile.vectors.find((v) => v.name === "leave.approved event")!.body;
const event = JSON.parse(body) as { id: string; type: string; data: { employeeId: string; startDate: string } };

function delivery(sent: string, headers: Record<string, string | undefined>): Request {
  const present = Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return new Request("https://hooks.example.com/hr", { method: "POST", body: sent, headers: present });
}

afterEach(() => vi.restoreAllMocks());

describe("the edge snippet's fetch handler", () => {
  const genuine = () => ({ [SIGNATURE_HEADER]: sign(body, SECRET), [EVENT_ID_HEADER]: event.id, [EVENT_TYPE_HEADER]: event.type });
  const cases: Array<[string, { given: { body: string; headers: Record<string, string | undefined> }; want: { status: number; json: unknown } }]> = [
    ["a genuine delivery", { given: { body, headers: genuine() }, want: { status: 200, json: { received: true } } }],
    ["a body changed after signing", { given: { body: body.replace("Approved", "Rejected"), headers: genuine() }, want: { status: 400, json: { error: "no_matching_signature" } } }],
    ["no signature header", { given: { body, headers: { ...genuine(), [SIGNATURE_HEADER]: undefined } }, want: { status: 400, json: { error: "missing_header" } } }],
    ["a header signed an hour ago", { given: { body, headers: { ...genuine(), [SIGNATURE_HEADER]: sign(body, SECRET, { timestamp: Math.floor(Date.now() / 1000) - 3600 }) } }, want: { status: 400, json: { error: "timestamp_too_old" } } }],
    ["an event id header that is not the body's", { given: { body, headers: { ...genuine(), [EVENT_ID_HEADER]: "evt_other" } }, want: { status: 400, json: { error: "event_id_mismatch" } } }],
  ];
  it.each(cases)("%s", async (_name, { given, want }) => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const response = await worker.fetch(delivery(given.body, given.headers), { HR_WEBHOOK_SECRET: SECRET });
    expect({ status: response.status, json: await response.json() }, "the handler's answer").toEqual(want);
  });

  it("hands a verified leave.approved event on, typed", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await worker.fetch(delivery(body, genuine()), { HR_WEBHOOK_SECRET: SECRET });
    expect(log.mock.calls, "what the snippet logged").toEqual([["book", event.data.employeeId, event.data.startDate]]);
  });
});
