// The cases of the receiver check, as a table: each names the rule of the provider's document it
// holds the receiver to (service-api.md, by section), what it wants (the delivery taken, or refused
// by the signature check) and the deliveries it sends, each a good delivery changed in one way.
// Cases beyond the provider's document are information and never fail the check.
import { webhookEventTypes } from "../../../generated/events.js";
import { deliveryRules, signatureFailureStatus, webhookHeaders } from "../../../generated/webhook-facts.js";
import { fractionalSignature, rotationSignature, withHeader, type Delivery, type SignAt } from "./delivery.js";
import { oneRecordPair, unnamedType, type EventBody, type EventsDocument, type Records } from "./events.js";
import type { Want } from "./grade.js";

/** What a case builds its deliveries with; made afresh for every case. */
export interface CaseKit {
  doc: EventsDocument;
  /** The receiver's signing secret, and one it does not hold. */
  secret: string;
  otherSecret: string;
  /** Milliseconds and Unix seconds when the case starts. */
  nowMs: number;
  now: number;
  newId(): string;
  /** Bodies about records no earlier case used. */
  records: Records;
  /** A good delivery of `event`: every header of section 6.1, signed now with the secret unless told otherwise. */
  deliver(event: EventBody, sign?: Partial<SignAt>): Promise<Delivery>;
}

/** One delivery of a case; `label` tells it apart when a case sends several. */
export interface Sent {
  delivery: Delivery;
  label?: string;
}

export interface DeliveryCase {
  name: string;
  /** The rule, in the provider's words, with its section of service-api.md. */
  rule: string;
  kind: "rule" | "information";
  want: Want;
  send(kit: CaseKit): Promise<Sent[]>;
}

const TOLERANCE = deliveryRules.signatureToleranceSeconds;
const SIGNATURE = webhookHeaders.serviceSignature;
const DELIVERY_ID = webhookHeaders.serviceDeliveryId;

const RULE = {
  answer: `a delivery is answered with a 2xx within ${deliveryRules.responseTimeoutSeconds} s; a slower answer, another status or a 3xx (redirects are not followed) is a failure and the event is sent again (6.5.1, 6.5.2)`,
  verify: (check: string) => `${check}; when verification fails the receiver answers ${signatureFailureStatus} (5)`,
};

const one = (delivery: Delivery): Sent[] => [{ delivery }];

/** The cases, in the order they are sent. */
export function deliveryCases(doc: EventsDocument): DeliveryCase[] {
  const [earlier, later] = oneRecordPair(doc);
  const unnamed = unnamedType();
  // The event the single-event cases send: the earlier of the pair (leave.approved, the type whose data the provider shows).
  const sampleEvent = (kit: CaseKit) => kit.records.event(earlier, kit.nowMs);
  const signatureCase = (name: string, check: string, send: (kit: CaseKit, event: EventBody) => Promise<Delivery>): DeliveryCase => ({
    name,
    rule: RULE.verify(check),
    kind: "rule",
    want: "rejected",
    send: async (kit) => one(await send(kit, sampleEvent(kit))),
  });
  return [
    ...webhookEventTypes.map(
      (type): DeliveryCase => ({
        name: `valid ${type} delivery`,
        rule: RULE.answer,
        kind: "rule",
        want: "accepted",
        send: async (kit) => one(await kit.deliver(kit.records.event(type, kit.nowMs))),
      }),
    ),
    signatureCase("body changed after signing", `the HMAC-SHA256 of t + "." + the raw body equals v1`, async (kit, event) => {
      const signed = await kit.deliver(event);
      // The same event naming another record: what a forged or altered delivery looks like.
      const [field] = Object.keys(event.data);
      return { ...signed, body: JSON.stringify({ ...event, data: { ...event.data, [field]: kit.newId() } }) };
    }),
    signatureCase("signed with another secret", "the digest is keyed with the endpoint's signing secret", (kit, event) => kit.deliver(event, { secret: kit.otherSecret })),
    signatureCase(`no ${SIGNATURE} header`, `every delivery is signed in ${SIGNATURE}`, async (kit, event) => withHeader(await kit.deliver(event), SIGNATURE, undefined)),
    signatureCase(`${SIGNATURE} that does not parse`, "the header parses (t=<unix_seconds>,v1=<hex_digest>)", async (kit, event) => {
      const signed = await kit.deliver(event);
      // The right t and digest, in another notation: t:<seconds>;v1:<hex>.
      return withHeader(signed, SIGNATURE, signed.headers[SIGNATURE].replace(/=/g, ":").replace(/,/g, ";"));
    }),
    signatureCase("t not an integer", "t is an integer (here t=<seconds>.5, correctly signed over that text)", async (kit, event) => {
      const signed = await kit.deliver(event);
      return withHeader(signed, SIGNATURE, await fractionalSignature(signed.body, { secret: kit.secret, timestamp: kit.now }));
    }),
    signatureCase(`t ${TOLERANCE + 1} s old`, `|now − t| is at most ${TOLERANCE} s`, (kit, event) => kit.deliver(event, { timestamp: kit.now - TOLERANCE - 1 })),
    // From the second after now: the receiver reads its clock later, and a second turning over
    // meanwhile would bring a t counted from the second before within the tolerance.
    signatureCase(`t ${TOLERANCE + 1} s in the future`, `|now − t| is at most ${TOLERANCE} s`, (kit, event) => kit.deliver(event, { timestamp: Math.ceil(kit.nowMs / 1000) + TOLERANCE + 1 })),
    {
      name: `t ${TOLERANCE - 1} s old`,
      rule: `|now − t| is at most ${TOLERANCE} s, so a delivery signed ${TOLERANCE - 1} s ago is good (5)`,
      kind: "rule",
      want: "accepted",
      // From the second after now, for the same reason: a slow receiver has two seconds, not one.
      send: async (kit) => one(await kit.deliver(sampleEvent(kit), { timestamp: Math.ceil(kit.nowMs / 1000) - TOLERANCE + 1 })),
    },
    {
      name: `same event again, new ${DELIVERY_ID}`,
      rule: "an event may arrive more than once; id is used to skip repeats, and a repeat is still answered with a 2xx or it counts as a failed delivery (6.5.4, 6.5.1)",
      kind: "rule",
      want: "accepted",
      send: async (kit) => {
        const event = sampleEvent(kit);
        // A redelivery: the same event and body bytes, a new delivery id, signed when sent.
        return [
          { delivery: await kit.deliver(event), label: "the first delivery" },
          { delivery: await kit.deliver(event), label: "the repeat" },
        ];
      },
    },
    {
      name: `one record's events out of order (${later} before ${earlier})`,
      rule: "order is not guaranteed; occurredAt orders events (6.5.5)",
      kind: "rule",
      want: "accepted",
      send: async (kit) => {
        const first = kit.records.event(later, kit.nowMs);
        const second = kit.records.event(earlier, kit.nowMs - 1000);
        return [
          { delivery: await kit.deliver(first), label: `${later} (sent first)` },
          { delivery: await kit.deliver(second), label: `${earlier}, which happened before it (sent second)` },
        ];
      },
    },
    {
      name: `event type the receiver cannot know (${unnamed.type})`,
      rule: `an endpoint that takes every event also receives event types added later; the catalogue has ${doc.totalTypes} types, ${webhookEventTypes.length} of them named (6.2.4, 6.3)`,
      kind: "rule",
      want: "accepted",
      send: async (kit) => one(await kit.deliver(kit.records.event(unnamed.type, kit.nowMs, unnamed.like))),
    },
    {
      name: "several v1 values (secret rotation)",
      rule: "not in the provider's document (the AsyncAPI document's assumption): during a secret rotation the header carries one v1 per active secret, and one match is enough",
      kind: "information",
      want: "accepted",
      send: async (kit) => {
        const signed = await kit.deliver(sampleEvent(kit));
        return one(withHeader(signed, SIGNATURE, await rotationSignature(signed.body, [kit.otherSecret, kit.secret], kit.now)));
      },
    },
  ];
}
