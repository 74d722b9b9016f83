// constructEvent (node:crypto, synchronous) and constructEventAsync (Web Crypto) against one table:
// the same delivery gives the same event or the same named error from both.
import { describe, expect, it } from "vitest";
import { constructEventAsync, type RawBody, type SigningSecrets, type VerifyOptions, type WebhookEvent } from "../../src/webhooks/index.js";
import {
  constructEvent,
  DEFAULT_TOLERANCE_SECONDS,
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  parseSignatureHeader,
  readHeader,
  sign,
  SIGNATURE_HEADER,
  WebhookEventError,
  WebhookSignatureError,
  type HeaderSource,
} from "../../src/webhooks/node/index.js";
import asyncapi from "../../generated/asyncapi.json" with { type: "json" };
import vectorFile from "./signature-vectors.json" with { type: "json" };

const SECRET = "whsec_construct_event_tests";
const T = 1_792_060_212;
const NOW = { now: T + 1 };

// The realistic leave.approved body of the known-answer vectors.
const leaveBody = vectorFile.vectors.find((v) => v.name === "leave.approved event")!.body;
const leave = JSON.parse(leaveBody) as { id: string; type: string };

/** Headers of a genuine delivery of `body`, as Node lower-cases them. */
function deliveryHeaders(body: string | Uint8Array, overrides: Record<string, string | undefined> = {}) {
  const headers: Record<string, string | undefined> = {
    "content-type": "application/json; charset=utf-8",
    "service-event-id": leave.id,
    "service-event-type": leave.type,
    "service-delivery-id": "dlv_1",
    "service-signature": sign(body, SECRET, { timestamp: T }),
    ...overrides,
  };
  return headers;
}

type Construct = (body: RawBody, headers: HeaderSource, secret: SigningSecrets, options?: VerifyOptions) => Promise<WebhookEvent>;
const IMPLEMENTATIONS: Array<[string, Construct]> = [
  ["constructEvent (webhooks/node)", async (...args) => constructEvent(...args)],
  ["constructEventAsync (webhooks)", constructEventAsync],
];

/** The thrown error as "Name:reason", or "ok". */
async function outcomeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return "ok";
  } catch (error) {
    if (error instanceof WebhookSignatureError || error instanceof WebhookEventError) {
      return `${error.name}:${error.reason}`;
    }
    return `unexpected ${String(error)}`;
  }
}

describe.each(IMPLEMENTATIONS)("%s", (_implementation, construct) => {
  describe("on a genuine delivery", () => {
    const node = deliveryHeaders(leaveBody);
    const mixedCase = Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k.replace(/(^|-)([a-z])/g, (m) => m.toUpperCase()), v]),
    );
    const cases: Array<[string, { given: { body: string | Uint8Array; headers: HeaderSource } }]> = [
      ["string body, Node headers", { given: { body: leaveBody, headers: node } }],
      ["Buffer body, Node headers", { given: { body: Buffer.from(leaveBody), headers: node } }],
      ["Mixed-Case header names", { given: { body: leaveBody, headers: mixedCase } }],
      ["WHATWG Headers", { given: { body: leaveBody, headers: new Headers(node as Record<string, string>) } }],
    ];
    it.each(cases)("%s: returns the parsed event", async (_name, { given }) => {
      const event = await construct(given.body, given.headers, SECRET, NOW);
      expect(event).toEqual(JSON.parse(leaveBody));
      expect(event.type, "the discriminant survives").toBe("leave.approved");
    });

    it("accepts a secret list (receiver-side rotation)", async () => {
      expect((await construct(leaveBody, node, ["whsec_previous", SECRET], NOW)).id).toBe(leave.id);
    });
  });

  describe("failures", () => {
    // given.body is what arrives; given.signed (default: the body) is what the signature covers;
    // given.headers overrides or removes (undefined) headers of a genuine delivery.
    type Given = { body: string | Uint8Array; signed?: string | Uint8Array; headers?: Record<string, string | undefined> };
    const invalidUtf8 = Buffer.from([0x7b, 0xff, 0x7d]);
    const withId = (body: Record<string, unknown>) => JSON.stringify(body);
    const cases: Array<[string, { given: Given; want: string }]> = [
      ["no signature header", { given: { body: leaveBody, headers: { "service-signature": undefined } }, want: "WebhookSignatureError:missing_header" }],
      ["body changed after signing", { given: { body: leaveBody.replace("Approved", "Rejected"), signed: leaveBody }, want: "WebhookSignatureError:no_matching_signature" }],
      ["unsigned non-JSON (checked before parsing)", { given: { body: "not json", signed: leaveBody }, want: "WebhookSignatureError:no_matching_signature" }],
      ["signed non-JSON", { given: { body: "not json" }, want: "WebhookEventError:invalid_json" }],
      ["signed empty body", { given: { body: "" }, want: "WebhookEventError:invalid_json" }],
      ["signed invalid UTF-8", { given: { body: invalidUtf8 }, want: "WebhookEventError:invalid_json" }],
      ["signed JSON array", { given: { body: "[]" }, want: "WebhookEventError:invalid_json" }],
      ["signed JSON null", { given: { body: "null" }, want: "WebhookEventError:invalid_json" }],
      ["signed body without id", { given: { body: withId({ type: leave.type }) }, want: "WebhookEventError:missing_field" }],
      ["signed body with a numeric id", { given: { body: withId({ id: 42, type: leave.type }) }, want: "WebhookEventError:missing_field" }],
      ["signed body with an empty type", { given: { body: withId({ id: leave.id, type: "" }) }, want: "WebhookEventError:missing_field" }],
      ["Service-Event-Id differs from the body id", { given: { body: leaveBody, headers: { "service-event-id": "other" } }, want: "WebhookEventError:event_id_mismatch" }],
      ["Service-Event-Id absent", { given: { body: leaveBody, headers: { "service-event-id": undefined } }, want: "WebhookEventError:event_id_mismatch" }],
      ["Service-Event-Type differs from the body type", { given: { body: leaveBody, headers: { "service-event-type": "leave.rejected" } }, want: "WebhookEventError:event_type_mismatch" }],
      ["Service-Event-Type absent", { given: { body: leaveBody, headers: { "service-event-type": undefined } }, want: "WebhookEventError:event_type_mismatch" }],
    ];
    it.each(cases)("%s", async (_name, { given, want }) => {
      const headers = deliveryHeaders(given.signed ?? given.body, given.headers);
      expect(await outcomeOf(() => construct(given.body, headers, SECRET, NOW))).toBe(want);
    });

    it("passes the tolerance through to verify", async () => {
      const headers = deliveryHeaders(leaveBody);
      expect(await outcomeOf(() => construct(leaveBody, headers, SECRET, { now: T + 61, toleranceSeconds: 60 }))).toBe(
        "WebhookSignatureError:timestamp_too_old",
      );
    });

    it("names both values in a mismatch message", async () => {
      const headers = deliveryHeaders(leaveBody, { "service-event-id": "evt_header" });
      await expect(construct(leaveBody, headers, SECRET, NOW)).rejects.toThrow(
        /Service-Event-Id header is "evt_header" but the body's id is "6f1c2b7e/,
      );
    });

    it("is a named Error with the reason", async () => {
      try {
        await construct("[]", deliveryHeaders("[]"), SECRET, NOW);
        expect.unreachable("constructEvent should have thrown");
      } catch (error) {
        expect(error).toBeInstanceOf(WebhookEventError);
        expect((error as WebhookEventError).name).toBe("WebhookEventError");
        expect((error as WebhookEventError).reason).toBe("invalid_json");
      }
    });
  });
});

describe("readHeader", () => {
  const cases: Array<[string, { given: { headers: HeaderSource; name: string }; want: string | undefined }]> = [
    ["lower-case record, canonical name", { given: { headers: { "service-event-id": "a" }, name: "Service-Event-Id" }, want: "a" }],
    ["upper-case record key", { given: { headers: { "SERVICE-EVENT-ID": "a" }, name: "service-event-id" }, want: "a" }],
    ["repeated header as array", { given: { headers: { "x-a": ["1", "2"] }, name: "X-A" }, want: "1, 2" }],
    ["numeric value", { given: { headers: { "content-length": 12 }, name: "Content-Length" }, want: "12" }],
    ["absent", { given: { headers: { "x-a": "1" }, name: "x-b" }, want: undefined }],
    ["undefined value is absent", { given: { headers: { "x-a": undefined }, name: "x-a" }, want: undefined }],
    ["WHATWG Headers", { given: { headers: new Headers({ "X-A": "1" }), name: "x-a" }, want: "1" }],
    ["WHATWG Headers, absent", { given: { headers: new Headers(), name: "x-a" }, want: undefined }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(readHeader(given.headers, given.name)).toBe(want);
  });
});

describe("agreement with the AsyncAPI document (generated/asyncapi.json)", () => {
  // The helpers cannot read the spec at run time (no file system on an edge runtime), so the facts they hold
  // are checked against it here.
  const headersSchema = asyncapi.components.schemas.WebhookHeaders;

  it("tolerance is the document's x-signature-tolerance-seconds", () => {
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(asyncapi.operations.sendWebhookEvent["x-signature-tolerance-seconds"]);
  });

  it("the signature header is the security scheme's header", () => {
    expect(SIGNATURE_HEADER).toBe(asyncapi.components.securitySchemes.serviceSignature.name);
  });

  it.each([SIGNATURE_HEADER, EVENT_ID_HEADER, EVENT_TYPE_HEADER, DELIVERY_ID_HEADER])(
    "%s is a required delivery header of WebhookHeaders",
    (name) => {
      expect(headersSchema.required).toContain(name);
    },
  );

  it("sign() output matches the Service-Signature pattern", () => {
    const pattern = new RegExp(headersSchema.properties["Service-Signature"].pattern);
    expect(sign("{}", SECRET, { timestamp: T })).toMatch(pattern);
  });

  // Every message example states the test secret it was signed with; each must verify and parse.
  const examples = Object.entries(asyncapi.components.messages).flatMap(([key, message]) =>
    (message.examples ?? []).map((example) => [`${key}: ${example.name}`, example] as const),
  );
  it("the document has signed examples", () => {
    expect(examples.length, "message examples").toBeGreaterThanOrEqual(13);
  });
  it.each(examples)("example %s verifies with its stated secret and constructs its payload, with both", async (_name, example) => {
    const secret = /`(whsec_[^`]+)`/.exec(example.summary)?.[1];
    expect(secret, "the example's summary names its test secret").toBeDefined();
    const headers = example.headers as Record<string, string>;
    const { timestamp } = parseSignatureHeader(headers[SIGNATURE_HEADER]);
    for (const [implementation, construct] of IMPLEMENTATIONS) {
      const event = await construct(JSON.stringify(example.payload), headers, secret!, { now: timestamp });
      expect(event, implementation).toEqual(example.payload);
    }
  });
});
