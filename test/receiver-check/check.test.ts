// checkReceiver grades a receiver against the provider's rules: a correct receiver passes every case,
// and a receiver broken in one way fails exactly the cases of that rule, each saying why. What it
// sends is what the service sends: every header of section 6.1, bodies valid against their AsyncAPI
// schemas. The receivers are fetch handlers in process; the clock is moved by hand.
import { describe, expect, it } from "vitest";
import { webhookEventTypes } from "../../generated/events.js";
import { webhookHeaders } from "../../generated/webhook-facts.js";
import { checkReceiver, type FetchHandler, type ReceiverReport } from "../../src/contract/receiver/check.js";
import { Unreachable } from "../../src/contract/network.js";
import { createReceiver, listen } from "../../src/webhooks/node/index.js";
import { bodyProblems, handWrittenReceiver, headerProblems, ManualClock, SECRET, type Flaw } from "./support.js";

const VALID = webhookEventTypes.map((type) => `valid ${type} delivery`);
const SIGNATURE_CASES = [
  "body changed after signing",
  "signed with another secret",
  "no Service-Signature header",
  "Service-Signature that does not parse",
  "t not an integer",
  "t 301 s old",
  "t 301 s in the future",
];
const ACCEPTED_CASES = [
  ...VALID,
  "t 299 s old",
  "same event again, new Service-Delivery-Id",
  "one record's events out of order (leave.cancelled before leave.approved)",
  "event type the receiver cannot know (approval.stage_changed)",
];
const INFORMATION = ["several v1 values (secret rotation)", "answer time margin"];

/** A handler on a clock of its own: each answer takes 3 ms of it. */
async function grade(handler: (clock: ManualClock) => FetchHandler): Promise<ReceiverReport> {
  const clock = new ManualClock();
  const inner = handler(clock);
  return checkReceiver(
    {
      handler: async (request) => {
        clock.advance(3);
        return inner(request);
      },
    },
    { secret: SECRET, clock },
  );
}

const failed = (report: ReceiverReport) => report.cases.filter((c) => !c.ok).map((c) => c.name);

describe("the cases", () => {
  it("are, in order: a valid delivery of every named type, the signature rules, then the other rules and the information", async () => {
    const report = await grade((clock) => handWrittenReceiver([], clock.now));
    expect(report.cases.map((c) => c.name)).toEqual([...VALID, ...SIGNATURE_CASES, ...ACCEPTED_CASES.slice(VALID.length), ...INFORMATION]);
    expect(report.cases.filter((c) => c.kind === "information").map((c) => c.name)).toEqual(INFORMATION);
  });

  it("name the provider's rule with its section of service-api.md", async () => {
    const report = await grade((clock) => handWrittenReceiver([], clock.now));
    for (const c of report.cases.filter((c) => c.kind === "rule")) expect(c.rule, c.name).toMatch(/\((5|6\.[\d.]+(, 6\.[\d.]+)*)\)$/);
  });
});

describe("a receiver written by hand", () => {
  // Only a wrong secret explains most failures at once: the report's hint says so, and only then.
  const cases: [string, { given: Flaw[]; want: { failing: string[]; reason: RegExp; hint?: RegExp } }][] = [
    ["that follows every rule", { given: [], want: { failing: [], reason: /./ } }],
    ["that skips the digest check", { given: ["skips the digest check"], want: { failing: ["body changed after signing", "signed with another secret"], reason: /^answered 200: it took a delivery whose signature check fails; the provider's rule is 400$/ } }],
    ["that skips the timestamp check", { given: ["skips the timestamp check"], want: { failing: ["t 301 s old", "t 301 s in the future"], reason: /^answered 200: .*the provider's rule is 400$/ } }],
    ["that takes a fractional t", { given: ["takes a fractional t"], want: { failing: ["t not an integer"], reason: /^answered 200: .*the provider's rule is 400$/ } }],
    ["that answers 500 to a repeat", { given: ["answers 500 to a repeat"], want: { failing: ["same event again, new Service-Delivery-Id"], reason: /^the repeat: answered 500 \(body: \{"error":"duplicate key"\}\); the provider's rule is a 2xx$/ } }],
    ["that answers 500 to an unknown type", { given: ["answers 500 to an unknown type"], want: { failing: ["event type the receiver cannot know (approval.stage_changed)"], reason: /^answered 500 .*the provider's rule is a 2xx$/ } }],
    ["that answers 401 instead of 400", { given: ["answers 401 instead of 400"], want: { failing: SIGNATURE_CASES, reason: /^answered 401 .*; the provider's rule is 400$/ } }],
    ["that redirects good deliveries", { given: ["redirects good deliveries"], want: { failing: ACCEPTED_CASES, reason: /^(the first delivery: |leave\.cancelled \(sent first\): )?answered 308: redirects are not followed, a 3xx counts as a failure$/ } }],
    [
      "that verifies with another secret",
      { given: ["verifies with another secret"], want: { failing: ACCEPTED_CASES, reason: /^(the first delivery: |leave\.cancelled \(sent first\): )?answered 400 .*; the provider's rule is a 2xx$/, hint: /^\d+ of \d+ correctly signed deliveries were refused with 400, as a failed signature check is: the --secret given is probably not the receiver's signing secret/ } },
    ],
  ];
  it.each(cases)("%s fails exactly its cases, each saying why", async (_name, { given, want }) => {
    const report = await grade((clock) => handWrittenReceiver(given, clock.now));
    expect(failed(report), "the failing cases").toEqual(want.failing);
    expect(report.ok, "ok").toBe(want.failing.length === 0);
    for (const c of report.cases.filter((c) => !c.ok)) expect(c.reason, c.name).toMatch(want.reason);
    for (const c of report.cases.slice(0, -1)) expect(c.ms, `${c.name}: the time of its deciding answer`).toBe(3);
    if (want.hint) expect(report.hint).toMatch(want.hint);
    else expect(report.hint, "no hint").toBeUndefined();
  });

  it("that follows every rule passes on a clock 999 ms ahead of the checker's: a second turning over before it reads its clock fails no case", async () => {
    const report = await grade((clock) => handWrittenReceiver([], () => clock.now() + 999));
    expect(failed(report), "the failing cases").toEqual([]);
  });

  it("that redirects fails the information case too, as information only", async () => {
    const report = await grade((clock) => handWrittenReceiver(["redirects good deliveries"], clock.now));
    const rotation = report.cases.find((c) => c.name === "several v1 values (secret rotation)")!;
    expect(rotation).toMatchObject({ ok: true, kind: "information", status: 308 });
    expect(rotation.reason).toMatch(/^information only: answered 308/);
  });
});

describe("answers out of the rules' time", () => {
  it("a receiver that never answers: each case ends after the provider's 10 s, 'no answer within 10 s'", async () => {
    const clock = new ManualClock();
    const report = await checkReceiver(
      {
        handler: () => {
          clock.advance(10_000);
          return new Promise<Response>(() => {});
        },
      },
      { secret: SECRET, clock },
    );
    expect(report.ok).toBe(false);
    for (const c of report.cases.filter((c) => c.kind === "rule")) {
      expect({ ok: c.ok, status: c.status, ms: c.ms, reason: c.reason }, c.name).toEqual({
        ok: false,
        status: undefined,
        ms: 10_000,
        reason: expect.stringMatching(/(^|: )no answer within 10 s; a slower answer counts as a failure$/),
      });
    }
    expect(report.cases.at(-1)).toMatchObject({ name: "answer time margin", ok: true, reason: "no 2xx answer to measure" });
  });

  it("the answer time margin is the slowest 2xx answer's, and information only", async () => {
    const clock = new ManualClock();
    const receiver = handWrittenReceiver([], clock.now);
    let n = 0;
    const report = await checkReceiver(
      {
        handler: (request) => {
          clock.advance(++n === 3 ? 9_500 : 2);
          return receiver(request);
        },
      },
      { secret: SECRET, clock },
    );
    expect(report.ok).toBe(true);
    expect(report.cases.at(-1)).toMatchObject({ name: "answer time margin", kind: "information", ok: true, status: 200, ms: 9_500 });
    expect(report.cases.at(-1)!.reason).toBe(`slowest 2xx answer 9500 ms (${VALID[2]}), 500 ms inside the limit`);
  });
});

describe("what the check sends", () => {
  it("every delivery carries the headers of section 6.1 and a body valid against its AsyncAPI schema", async () => {
    const clock = new ManualClock();
    const receiver = handWrittenReceiver([], clock.now);
    const sent: { caseIndex: number; headers: Headers; body: string; method: string }[] = [];
    let caseIndex = 0;
    const report = await checkReceiver(
      {
        handler: async (request) => {
          sent.push({ caseIndex, headers: request.headers, body: await request.clone().text(), method: request.method });
          return receiver(request);
        },
      },
      { secret: SECRET, clock, onCase: () => caseIndex++ },
    );
    const cases = report.cases;
    expect(sent.length, "deliveries").toBeGreaterThan(cases.length);
    const types = new Set<string>();
    for (const { caseIndex: i, headers, body, method } of sent) {
      const name = cases[i].name;
      expect(method, name).toBe("POST");
      const event = JSON.parse(body);
      types.add(event.type);
      expect(bodyProblems(event), `${name}: body against the schema of ${event.type}`).toEqual([]);
      expect(headers.get(webhookHeaders.serviceEventId), `${name}: event id header`).toBe(event.id);
      expect(headers.get(webhookHeaders.serviceEventType), `${name}: event type header`).toBe(event.type);
      for (const header of Object.values(webhookHeaders)) {
        const value = headers.get(header);
        if (header === webhookHeaders.serviceSignature && name === "no Service-Signature header") {
          expect(value, `${name}: ${header}`).toBeNull();
          continue;
        }
        expect(value, `${name}: ${header}`).not.toBeNull();
        if (header !== webhookHeaders.serviceSignature || cases[i].kind === "rule" && ACCEPTED_CASES.includes(name)) {
          expect(headerProblems(header, value!), `${name}: ${header} ${value}`).toEqual([]);
        }
      }
    }
    expect([...types].filter((t) => !webhookEventTypes.includes(t as never)), "the one type no message names").toEqual(["approval.stage_changed"]);
    expect(webhookEventTypes.filter((t) => !types.has(t)), "named types never sent").toEqual([]);
  });

  it("a repeat is the same event and body bytes with a new Service-Delivery-Id; out of order, the later event goes first", async () => {
    const sent: { headers: Headers; body: string }[] = [];
    const receiver = handWrittenReceiver();
    await checkReceiver({ handler: async (request) => (sent.push({ headers: request.headers, body: await request.clone().text() }), receiver(request)) }, { secret: SECRET });
    const byId = new Map<string, typeof sent>();
    for (const s of sent) byId.set(s.headers.get(webhookHeaders.serviceEventId)!, [...(byId.get(s.headers.get(webhookHeaders.serviceEventId)!) ?? []), s]);
    const repeated = [...byId.values()].filter((group) => group.length > 1);
    expect(repeated, "one event sent twice").toHaveLength(1);
    const [first, again] = repeated[0];
    expect(again.body, "the same bytes").toBe(first.body);
    expect(again.headers.get(webhookHeaders.serviceDeliveryId)).not.toBe(first.headers.get(webhookHeaders.serviceDeliveryId));
    const cancelledAt = sent.findIndex((s) => JSON.parse(s.body).type === "leave.cancelled" && sent.some((o) => JSON.parse(o.body).type === "leave.approved" && JSON.parse(o.body).data.leaveRequestId === JSON.parse(s.body).data.leaveRequestId && sent.indexOf(o) > sent.indexOf(s)));
    expect(cancelledAt, "a leave.cancelled sent before the leave.approved of the same request").toBeGreaterThan(-1);
    const cancelled = JSON.parse(sent[cancelledAt].body);
    const approved = JSON.parse(sent[cancelledAt + 1].body);
    expect(approved.data.leaveRequestId).toBe(cancelled.data.leaveRequestId);
    expect(approved.occurredAt < cancelled.occurredAt, "the approval happened first").toBe(true);
  });
});

describe("the url transport", () => {
  it("grades createReceiver over HTTP, the same cases passing", async () => {
    const server = await listen(createReceiver({ secret: SECRET, onEvent() {} }), { port: 0 });
    try {
      const report = await checkReceiver({ url: `${server.url}/hooks` }, { secret: SECRET });
      expect(failed(report)).toEqual([]);
      expect(report.target).toBe(`${server.url}/hooks`);
    } finally {
      await server.close();
    }
  });

  it("sends through the fetch it is given, not following redirects", async () => {
    const requests: Request[] = [];
    const fakeFetch = (async (request: Request) => (requests.push(request), new Response(null, { status: 302, headers: { location: "https://elsewhere.example/" } }))) as typeof fetch;
    const report = await checkReceiver({ url: "https://hooks.example.com/hr" }, { secret: SECRET, fetch: fakeFetch });
    expect(requests.every((r) => r.redirect === "manual" && r.url === "https://hooks.example.com/hr")).toBe(true);
    expect(report.cases.find((c) => c.name === VALID[0])).toMatchObject({ ok: false, status: 302, reason: "answered 302: redirects are not followed, a 3xx counts as a failure" });
  });

  it("a URL that never answers is Unreachable, not a graded failure", async () => {
    const refused = (async () => {
      throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
    }) as typeof fetch;
    await expect(checkReceiver({ url: "http://127.0.0.1:1/hooks" }, { secret: SECRET, fetch: refused })).rejects.toThrow(new Unreachable("http://127.0.0.1:1/hooks", "ECONNREFUSED"));
  });

  it("a network error after the receiver has answered fails that case only", async () => {
    const receiver = handWrittenReceiver();
    let n = 0;
    const flaky = (async (request: Request) => {
      if (++n === 2) throw new TypeError("fetch failed", { cause: { code: "ECONNRESET" } });
      return receiver(request);
    }) as typeof fetch;
    const report = await checkReceiver({ url: "https://hooks.example.com/hr" }, { secret: SECRET, fetch: flaky });
    expect(failed(report)).toEqual([VALID[1]]);
    expect(report.cases[1].reason).toBe("no answer: ECONNRESET");
  });
});

it("refuses to run without a secret or a target", async () => {
  await expect(checkReceiver({ handler: handWrittenReceiver() }, { secret: "" })).rejects.toThrow(/signing secret/);
  await expect(checkReceiver({} as never, { secret: SECRET })).rejects.toThrow(/\{ url \} or \{ handler \}/);
});
