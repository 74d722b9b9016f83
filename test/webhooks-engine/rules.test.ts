// The engine's pure rules: which endpoint URLs are accepted (development and strict mode), event
// selections and secrets, occurredAt texts, seeded ids, and the delivery rules read from the spec.
import { describe, expect, test } from "vitest";
import { webhookEventTypes } from "../../generated/events.js";
import { DeliveryLog, type DeliveryLogEntry } from "../../mock/webhooks/delivery-log.js";
import { checkEndpointUrl } from "../../mock/webhooks/endpoint-url.js";
import { EndpointRegistry, generateSecret } from "../../mock/webhooks/endpoints.js";
import { eventProblems, requestProblem } from "../../mock/kernel/json-schema.js";
import { createOccurredAtClock, formatOccurredAt, seededUuids } from "../../mock/webhooks/event-body.js";
import { loadAsyncApi } from "../../scripts/lib/spec-document.js";

const asyncapi = loadAsyncApi();

describe("endpoint URLs", () => {
  // [name, { given: url, want: [accepted in development mode, in development mode with --allow-private-urls, in strict mode] }]
  const cases: Array<[string, { given: string; want: [boolean, boolean, boolean] }]> = [
    ["public https", { given: "https://hooks.example.com/hr", want: [true, true, true] }],
    ["public https with a port and query", { given: "https://hooks.example.com:8443/hr?token=x", want: [true, true, true] }],
    ["public IPv4 over https", { given: "https://93.184.216.34/hooks", want: [true, true, true] }],
    ["http to 127.0.0.1", { given: "http://127.0.0.1:3000/hooks", want: [true, true, false] }],
    ["http to 127.8.9.10", { given: "http://127.8.9.10:3000/hooks", want: [true, true, false] }],
    ["http to localhost", { given: "http://localhost:3000/hooks", want: [true, true, false] }],
    ["http to [::1]", { given: "http://[::1]:3000/hooks", want: [true, true, false] }],
    ["http to a public host", { given: "http://hooks.example.com/hr", want: [false, false, false] }],
    ["http to 10.0.0.1", { given: "http://10.0.0.1/hooks", want: [false, false, false] }],
    ["https to 127.0.0.1", { given: "https://127.0.0.1/hooks", want: [true, true, false] }],
    ["https to 10.1.2.3", { given: "https://10.1.2.3/hooks", want: [false, true, false] }],
    ["https to 172.16.0.1", { given: "https://172.16.0.1/hooks", want: [false, true, false] }],
    ["https to 172.32.0.1 (public)", { given: "https://172.32.0.1/hooks", want: [true, true, true] }],
    ["https to 192.168.0.1", { given: "https://192.168.0.1/hooks", want: [false, true, false] }],
    ["https to 169.254.169.254", { given: "https://169.254.169.254/", want: [false, true, false] }],
    ["https to 100.64.0.1 (carrier-grade NAT)", { given: "https://100.64.0.1/", want: [false, true, false] }],
    ["https to 0.0.0.0", { given: "https://0.0.0.0/", want: [false, true, false] }],
    ["https to 127.0.0.1 written in hex", { given: "https://0x7f000001/", want: [true, true, false] }],
    ["https to [::1]", { given: "https://[::1]/", want: [true, true, false] }],
    ["https to [::ffff:10.0.0.1] (IPv4-mapped)", { given: "https://[::ffff:10.0.0.1]/", want: [false, true, false] }],
    ["https to [fc00::1]", { given: "https://[fc00::1]/", want: [false, true, false] }],
    ["https to [fe80::1]", { given: "https://[fe80::1]/", want: [false, true, false] }],
    ["https to [2606:4700::1111] (public)", { given: "https://[2606:4700::1111]/", want: [true, true, true] }],
    ["https to [::ffff:7f00:1] (IPv4-mapped loopback in hex)", { given: "https://[::ffff:7f00:1]/", want: [true, true, false] }],
    ["https to [::ffff:0:a00:1] (IPv4-translated 10.0.0.1)", { given: "https://[::ffff:0:a00:1]/", want: [false, true, false] }],
    ["https to [::127.0.0.1] (deprecated IPv4-compatible)", { given: "https://[::127.0.0.1]/", want: [false, true, false] }],
    ["https to [64:ff9b::a00:1] (NAT64 of 10.0.0.1)", { given: "https://[64:ff9b::a00:1]/", want: [false, true, false] }],
    ["https to [64:ff9b::5db8:d822] (NAT64 of a public address)", { given: "https://[64:ff9b::5db8:d822]/", want: [true, true, true] }],
    ["https to [2002:7f00:1::] (6to4 of 127.0.0.1)", { given: "https://[2002:7f00:1::]/", want: [false, true, false] }],
    ["https to [2002:5db8:d822::1] (6to4 of a public address)", { given: "https://[2002:5db8:d822::1]/", want: [true, true, true] }],
    ["https to [2001:db8::1] (documentation)", { given: "https://[2001:db8::1]/", want: [false, true, false] }],
    ["https to [100::1] (discard-only)", { given: "https://[100::1]/", want: [false, true, false] }],
    ["https to [ff02::1] (multicast)", { given: "https://[ff02::1]/", want: [false, true, false] }],
    ["https to 192.0.2.10 (documentation)", { given: "https://192.0.2.10/", want: [false, true, false] }],
    ["https to 203.0.113.5 (documentation)", { given: "https://203.0.113.5/", want: [false, true, false] }],
    ["https to 255.255.255.255 (broadcast)", { given: "https://255.255.255.255/", want: [false, true, false] }],
    ["https to [2001::1] (Teredo)", { given: "https://[2001::1]/", want: [false, true, false] }],
    ["https to [2001:0:4136:e378:8000:63bf:3fff:fdd2] (Teredo)", { given: "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", want: [false, true, false] }],
    ["https to [2001:2::1] (IETF protocol assignment)", { given: "https://[2001:2::1]/", want: [false, true, false] }],
    ["https to 192.88.99.1 (6to4 relay anycast)", { given: "https://192.88.99.1/", want: [false, true, false] }],
    ["https to [2a00:1450:4001::200e] (a public IPv6 address)", { given: "https://[2a00:1450:4001::200e]/", want: [true, true, true] }],
    ["https to 127.1 (short form of loopback)", { given: "https://127.1/", want: [true, true, false] }],
    ["https to port 0", { given: "https://hooks.example.com:0/hr", want: [false, false, false] }],
    ["https to localhost", { given: "https://localhost/", want: [true, true, false] }],
    ["https to api.localhost", { given: "https://api.localhost/", want: [true, true, false] }],
    ["https to an .internal name", { given: "https://hooks.internal/", want: [true, true, false] }],
    ["https to a .local name", { given: "https://nas.local/", want: [true, true, false] }],
    ["https to a single-label name", { given: "https://intranet/", want: [true, true, false] }],
    ["ftp", { given: "ftp://hooks.example.com/", want: [false, false, false] }],
    ["credentials in the URL", { given: "https://user:pw@hooks.example.com/", want: [false, false, false] }],
    ["a fragment", { given: "https://hooks.example.com/#x", want: [false, false, false] }],
    ["not a URL", { given: "hooks.example.com/hr", want: [false, false, false] }],
    ["empty", { given: "", want: [false, false, false] }],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    const development = checkEndpointUrl(given, { strict: false });
    const optedIn = checkEndpointUrl(given, { strict: false, allowPrivate: true });
    const strict = checkEndpointUrl(given, { strict: true });
    expect([development.ok, optedIn.ok, strict.ok], JSON.stringify([development, optedIn, strict])).toEqual(want);
    for (const result of [development, optedIn, strict]) if (!result.ok) expect(result.message, "a refusal names the url").toMatch(/^url /);
  });
});

describe("the in-process entry's check: the control API's AddEndpointRequest schema", () => {
  // [name, { given: events, want: the field at fault, or undefined when accepted }]
  const selections: Array<[string, { given: unknown; want: string | undefined }]> = [
    ["absent means all", { given: undefined, want: undefined }],
    ["all", { given: "all", want: undefined }],
    ["a list with a repeat", { given: ["leave.approved", "leave.approved", "payroll.paid"], want: undefined }],
    ["an empty list", { given: [], want: "events" }],
    ["an unknown type", { given: ["leave.approved", "salary.changed"], want: "events[1]" }],
    ["text other than all", { given: "leave.approved", want: "events" }],
  ];
  test.each(selections)("events: %s", (_name, { given, want }) => {
    expect(requestProblem("AddEndpointRequest", { url: "https://hooks.example.com/x", events: given })?.field).toEqual(want);
  });

  test("a repeated type is kept once, in order, by the registry", () => {
    const registry = new EndpointRegistry({ strictUrls: false, maxPerOrganisation: 10 });
    const added = registry.add("org-a", { url: "https://hooks.example.com/x", events: ["leave.approved", "leave.approved", "payroll.paid"] });
    expect(added.ok && added.value.created.events).toEqual(["leave.approved", "payroll.paid"]);
  });

  test("every catalogue type can be selected", () => {
    expect(requestProblem("AddEndpointRequest", { url: "https://hooks.example.com/x", events: webhookEventTypes })).toBeUndefined();
  });

  test("generated secrets are whsec_ and 32 random bytes, each different, and pass the schema's secret rule", () => {
    const secrets = Array.from({ length: 20 }, generateSecret);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(secret.slice(6), "base64url")).toHaveLength(32);
      expect(requestProblem("AddEndpointRequest", { url: "https://hooks.example.com/x", secret })).toBeUndefined();
    }
    expect(new Set(secrets).size).toBe(20);
  });

  test.each([["sk_123456789012345678"], ["whsec_short"], ["whsec_has a space in it here"], [""]])("secret %j is refused, named, never echoed", (secret) => {
    const problem = requestProblem("AddEndpointRequest", { url: "https://hooks.example.com/x", secret });
    expect(problem).toMatchObject({ kind: "invalid", field: "secret" });
    if (secret !== "") expect(problem?.message, "the value sent").not.toContain(secret);
  });

  test("the registry keeps the limit it is given per organisation, as a conflict", () => {
    const limit = asyncapi.operations.sendWebhookEvent["x-max-endpoints-per-organisation"];
    const registry = new EndpointRegistry({ strictUrls: false, maxPerOrganisation: limit });
    for (let i = 0; i < limit; i++) expect(registry.add("org-a", { url: `https://hooks.example.com/${i}` }).ok).toBe(true);
    expect(registry.add("org-a", { url: "https://hooks.example.com/over" })).toMatchObject({ ok: false, reason: { kind: "conflict", message: expect.stringMatching(/already has 10/) } });
    const other = registry.add("org-b", { url: "https://hooks.example.com/b" });
    expect(other.ok && other.value.created.url).toBe("https://hooks.example.com/b");
  });
});

describe("occurredAt and ids", () => {
  test("formatOccurredAt writes 7 fractional digits and Z", () => {
    expect(formatOccurredAt(Date.UTC(2026, 9, 15, 9, 50, 11, 482), 1937)).toBe("2026-10-15T09:50:11.4821937Z");
    expect(formatOccurredAt(0, 0)).toBe("1970-01-01T00:00:00.0000000Z");
  });

  test("the clock never repeats or goes backwards, even when the wall clock does", () => {
    const wall = [5000, 5000, 5000, 4000, 5001];
    const clock = createOccurredAtClock(() => wall.shift() ?? 5001);
    const texts = Array.from({ length: 5 }, clock);
    for (const text of texts) expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/);
    expect([...texts].sort(), "in order").toEqual(texts);
    expect(new Set(texts).size, "all different").toBe(5);
  });

  test("seeded uuids are version 4, reproducible per seed, different across seeds", () => {
    const a = seededUuids(7);
    const b = seededUuids(7);
    const c = seededUuids(8);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect(c()).not.toBe(first[0]);
    for (const id of first) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe("the event schema check", () => {
  test("refuses a body its AsyncAPI message's payload schema does not allow", () => {
    const example = asyncapi.components.messages.leaveApproved.examples[0].payload;
    expect(eventProblems(example), "the document's own example is valid").toEqual([]);
    expect(eventProblems({ ...example, occurredAt: "2026-10-15T09:50:11.482Z" }).join(" "), "3 fractional digits").toMatch(/occurredAt/);
    expect(eventProblems({ ...example, data: { ...example.data, salary: 1 } }).join(" "), "no extra data").toMatch(/additional/);
    expect(eventProblems({ ...example, type: "salary.changed" }).join(" ")).toMatch(/not the name of an AsyncAPI message/);
  });
});

describe("the delivery log", () => {
  const entry = (n: number, state: DeliveryLogEntry["state"]): DeliveryLogEntry => ({
    id: `entry-${n}`,
    eventId: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    type: "payroll.paid",
    organizationId: "org",
    endpointId: "ep",
    url: "http://127.0.0.1/h",
    duplicate: false,
    resendOf: null,
    state,
    queuedAt: "2026-10-15T09:50:11.483Z",
    nextAttemptAt: null,
    attempts: [],
  });

  test("keeps every unfinished entry and drops the oldest finished ones beyond its limit", () => {
    const log = new DeliveryLog(10);
    for (let i = 0; i < 30; i++) log.add(entry(i, i % 2 === 0 ? "succeeded" : "retry-scheduled"));
    const kept = log.find({ limit: 100 });
    expect(kept.filter((e) => e.state === "retry-scheduled"), "all 15 unfinished kept").toHaveLength(15);
    expect(kept.length, "trimmed").toBeLessThan(30);
    expect(kept[0].eventId, "newest first").toBe(entry(29, "succeeded").eventId);
  });

  test("finds by event and endpoint id, newest first, up to a limit", () => {
    const log = new DeliveryLog(100);
    for (let i = 0; i < 5; i++) log.add(entry(i, "succeeded"));
    expect(log.find({ eventId: entry(3, "succeeded").eventId }).map((e) => e.eventId)).toEqual([entry(3, "succeeded").eventId]);
    expect(log.find({ endpointId: "ep", limit: 2 }).map((e) => e.eventId)).toEqual([entry(4, "queued").eventId, entry(3, "queued").eventId]);
    expect(log.find({ endpointId: "other" })).toEqual([]);
  });
});
