// Fuzz of the control API: seeded random bodies (any JSON, deep nesting, large strings, broken
// JSON, other media types) and query strings. Never a 5xx, never a crash: every answer is the
// envelope with a status the control document lists for the operation (or its path's 405).
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { bundledControlSpec, WEBHOOKS_KEY } from "./support.js";

const SEED = 20261123;
const RUNS = 400;

let mock: RunningMock;
let spec: any;
beforeAll(async () => {
  [mock, spec] = await Promise.all([startMock({ port: 0, rateLimit: "off" }), bundledControlSpec()]);
});
afterAll(async () => {
  await mock?.close();
});

interface FuzzRequest {
  method: string;
  path: string;
  contentType: string;
  body?: string;
}

const nested = fc.integer({ min: 1, max: 20_000 }).chain((depth) =>
  fc.constantFrom("[", '{"a":').map((open) => {
    const close = open === "[" ? "]" : "}";
    return `{"url":${open.repeat(depth)}1${close.repeat(depth)}}`;
  }),
);
const body = fc.oneof(
  { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)) },
  { weight: 3, arbitrary: fc.record({ url: fc.oneof(fc.string(), fc.jsonValue()), events: fc.oneof(fc.constant("all"), fc.array(fc.string(), { maxLength: 40 }), fc.jsonValue()), secret: fc.oneof(fc.string(), fc.integer()), type: fc.oneof(fc.constantFrom("leave.approved", "webhook.test", "nope"), fc.jsonValue()), id: fc.oneof(fc.uuid(), fc.string()) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)) },
  { weight: 2, arbitrary: nested },
  { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 200_000 }).map((n) => JSON.stringify({ url: "https://hooks.example.com/x", description: "d".repeat(n) })) },
  { weight: 1, arbitrary: fc.constantFrom("", "{", "nul", "[]", "null", '"text"', "{\"url\":\"\\ud800\"}", "\u0000") },
);
const request: fc.Arbitrary<FuzzRequest> = fc.oneof(
  fc.record({
    method: fc.constant("POST"),
    path: fc.constantFrom("/_mock/webhooks/endpoints", "/_mock/webhooks/events"),
    contentType: fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"),
    body,
  }),
  fc.record({
    method: fc.constantFrom("GET", "HEAD", "DELETE", "PUT"),
    path: fc.tuple(fc.constantFrom("/_mock/webhooks/deliveries?", "/_mock/webhooks/endpoints/"), fc.string({ maxLength: 40 })).map(([path, rest]) => path + encodeURIComponent(rest).replace(/%3D/g, "=").replace(/%26/g, "&")),
    contentType: fc.constant("application/json"),
  }),
);

/** The statuses the control document lists for the operations of the path `path` matches. */
function declaredStatuses(path: string): Set<string> {
  const bare = path.split("?")[0];
  const template = Object.keys(spec.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, "[^/]*")}$`).test(bare) /* Prism matches an empty path parameter */);
  if (!template) return new Set(["404"]);
  return new Set(Object.values<any>(spec.paths[template]).flatMap((op) => Object.keys(op.responses)));
}

test(`${RUNS} random control API requests are each answered with a declared status and the envelope`, async () => {
  await fc.assert(
    fc.asyncProperty(request, async (given) => {
      const response = await fetch(mock.url + given.path, {
        method: given.method,
        headers: { authorization: `Bearer ${WEBHOOKS_KEY}`, "content-type": given.contentType },
        body: given.body,
      });
      const text = await response.text();
      const what = `${given.method} ${given.path.slice(0, 80)} (${given.contentType}, body ${given.body?.slice(0, 60)}...) answered ${response.status}`;
      expect(response.status, `${what}: never a 5xx`).toBeLessThan(500);
      expect(declaredStatuses(given.path).has(String(response.status)), `${what}: a status the document lists`).toBe(true);
      if (given.method === "HEAD") return;
      const envelope = JSON.parse(text);
      expect(typeof envelope.isSuccessful, `${what}: the envelope`).toBe("boolean");
      if (!envelope.isSuccessful) expect(envelope, what).toMatchObject({ code: String(response.status), data: null });
    }),
    { seed: SEED, numRuns: RUNS },
  );
}, 120_000);
