// Shared by the receiver-check suites: receivers written here as an integration developer would,
// one correct and each flaw the check must catch; a clock the tests move by hand; and the AsyncAPI
// schemas, through Ajv (not the check's own code), for what the check sends.
import { createHmac, timingSafeEqual } from "node:crypto";
import addFormatsModule from "ajv-formats";
import Ajv2020Module from "ajv/dist/2020.js";
import { webhookEventTypes } from "../../generated/events.js";
import { deliveryRules, webhookHeaders } from "../../generated/webhook-facts.js";
import asyncapi from "../../generated/asyncapi.json" with { type: "json" };
import type { FetchHandler } from "../../src/contract/receiver/check.js";
import type { Clock } from "../../src/contract/network.js";

export const SECRET = "whsec_receiver_check_tests";

/** One way a receiver breaks a rule of the provider. */
export type Flaw =
  | "skips the digest check"
  | "skips the timestamp check"
  | "takes a fractional t"
  | "answers 500 to a repeat"
  | "answers 500 to an unknown type"
  | "answers 401 instead of 400"
  | "redirects good deliveries"
  | "verifies with another secret";

const KNOWN_TYPES: ReadonlySet<string> = new Set(webhookEventTypes);
const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/**
 * A fetch-style receiver, its signature check written by hand with node:crypto (independent of the
 * package's verifier): correct, or broken in the ways `flaws` names and no other.
 */
export function handWrittenReceiver(flaws: readonly Flaw[] = [], now: () => number = () => Date.now()): FetchHandler {
  const has = (flaw: Flaw) => flaws.includes(flaw);
  const seen = new Set<string>();
  const refuse = (why: string) => json(has("answers 401 instead of 400") ? 401 : 400, { error: why });
  return async (request) => {
    const body = await request.text();
    const header = request.headers.get(webhookHeaders.serviceSignature);
    if (!header) return refuse("no signature");
    const entries = header.split(",").map((entry) => entry.split("="));
    if (entries.some((entry) => entry.length !== 2)) return refuse("signature header does not parse");
    const times = entries.filter(([key]) => key === "t").map(([, value]) => value);
    const digests = entries.filter(([key]) => key === "v1").map(([, value]) => value);
    if (times.length !== 1 || digests.length === 0) return refuse("signature header does not parse");
    const [t] = times;
    if (!(has("takes a fractional t") ? /^\d+(\.\d+)?$/ : /^\d+$/).test(t)) return refuse("t is not an integer");
    if (!has("skips the timestamp check") && Math.abs(now() / 1000 - Number(t)) > deliveryRules.signatureToleranceSeconds) return refuse("stale");
    if (!has("skips the digest check")) {
      const expected = createHmac("sha256", has("verifies with another secret") ? `${SECRET}_rotated` : SECRET).update(`${t}.${body}`).digest();
      const matches = digests.some((hex) => {
        const given = Buffer.from(hex, "hex");
        return given.length === expected.length && timingSafeEqual(given, expected);
      });
      if (!matches) return refuse("no matching signature");
    }
    const event = JSON.parse(body) as { id: string; type: string };
    if (has("redirects good deliveries")) return new Response(null, { status: 308, headers: { location: "/hooks/" } });
    if (seen.has(event.id)) return has("answers 500 to a repeat") ? json(500, { error: "duplicate key" }) : json(200, { duplicate: true });
    seen.add(event.id);
    if (!KNOWN_TYPES.has(event.type) && has("answers 500 to an unknown type")) return json(500, { error: `no handler for ${event.type}` });
    return json(200, { received: true });
  };
}

/** A clock that moves only when told: `sleep` resolves once `advance` has passed its deadline (or its signal aborts). */
export class ManualClock implements Clock {
  t = 1_792_000_000_000;
  private waiting: { at: number; resolve: () => void }[] = [];
  now = () => this.t;
  sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      this.waiting.push({ at: this.t + ms, resolve });
      signal?.addEventListener("abort", () => resolve(), { once: true });
    });
  advance(ms: number): void {
    this.t += ms;
    for (const w of this.waiting.filter((w) => w.at <= this.t)) w.resolve();
    this.waiting = this.waiting.filter((w) => w.at > this.t);
  }
}

// Ajv ships CommonJS; under NodeNext its default export arrives as the module object.
const Ajv2020 = ((Ajv2020Module as any).default ?? Ajv2020Module) as new (options: object) => any;
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: unknown) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema(asyncapi, "asyncapi");

const byType = new Map(Object.entries(asyncapi.components.messages).map(([key, message]) => [message.name, `asyncapi#/components/messages/${key}/payload`]));
const compiled = new Map<string, any>();
const validator = (ref: string) => {
  if (!compiled.has(ref)) compiled.set(ref, ajv.compile({ $ref: ref }));
  return compiled.get(ref);
};
const problems = (validate: any, value: unknown) => (validate(value) ? [] : (validate.errors ?? []).map((e: any) => `${e.instancePath || "(root)"} ${e.message}`));

/** Problems of a body against its type's message payload, or the envelope for a type no message names. */
export function bodyProblems(body: unknown): string[] {
  const type = (body as { type?: string }).type ?? "";
  return problems(validator(byType.get(type) ?? "asyncapi#/components/schemas/WebhookEventEnvelope"), body);
}

/** Problems of one header's value against its WebhookHeaders schema. */
export function headerProblems(name: string, value: string): string[] {
  return problems(validator(`asyncapi#/components/schemas/WebhookHeaders/properties/${name}`), value);
}
