// The signature verifiers, node:crypto's (synchronous) and Web Crypto's (asynchronous), held to one
// specification: every case below runs against both, so their named errors, tolerance and rotation
// cannot drift apart. The known-answer vectors come from OpenSSL, not from either implementation.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  computeSignatureAsync,
  signAsync,
  verifyAsync,
  WebhookSignatureError,
  type RawBody,
  type SignatureHeaderValue,
  type SigningSecrets,
  type VerifiedSignature,
  type VerifyOptions,
  type WebhookSignatureErrorReason,
} from "../../src/webhooks/index.js";
import { computeSignature, parseSignatureHeader, sign, verify } from "../../src/webhooks/node/index.js";
import vectorFile from "./signature-vectors.json" with { type: "json" };

interface Vector {
  name: string;
  note: string;
  secret: string;
  timestamp: number;
  body: string;
  header: string | null;
  now: number;
  want: { ok: true } | { ok: false; reason: WebhookSignatureErrorReason };
  digest?: string;
}

const vectors = vectorFile.vectors as Vector[];
const positives = vectors.filter((v) => v.want.ok);
const negatives = vectors.filter((v) => !v.want.ok);

// Every reason the verifier can give; the Record type makes tsc fail when the union grows.
const ALL_REASONS: Record<WebhookSignatureErrorReason, true> = {
  missing_header: true,
  malformed_header: true,
  timestamp_not_integer: true,
  no_v1_signature: true,
  timestamp_too_old: true,
  timestamp_in_future: true,
  no_matching_signature: true,
};

const SECRET = "whsec_test_secret_for_unit_tests";
const T = 1_792_060_212;

/** One signer/verifier family, seen through promises so both are driven by the same cases. */
interface Implementation {
  verify(body: RawBody, header: SignatureHeaderValue, secret: SigningSecrets, options?: VerifyOptions): Promise<VerifiedSignature>;
  sign(body: RawBody, secret: string, options?: { timestamp?: number }): Promise<string>;
  computeSignature(body: RawBody, secret: string, timestamp: number): Promise<string>;
}

const IMPLEMENTATIONS: Array<[string, Implementation]> = [
  [
    "node:crypto verify/sign (webhooks/node)",
    {
      verify: async (...args) => verify(...args),
      sign: async (...args) => sign(...args),
      computeSignature: async (...args) => computeSignature(...args),
    },
  ],
  ["Web Crypto verifyAsync/signAsync (webhooks)", { verify: verifyAsync, sign: signAsync, computeSignature: computeSignatureAsync }],
];

/** The error a verification rejected with, or a description of the fact that it did not. */
async function failureOf(run: () => Promise<unknown>): Promise<WebhookSignatureError | string> {
  try {
    await run();
    return "verify returned normally";
  } catch (error) {
    return error instanceof WebhookSignatureError ? error : `threw a non-WebhookSignatureError: ${String(error)}`;
  }
}

/** "ok", the WebhookSignatureError's reason, or what else happened. */
async function outcomeOf(run: () => Promise<unknown>): Promise<string> {
  const failure = await failureOf(run);
  if (typeof failure !== "string") return failure.reason;
  return failure === "verify returned normally" ? "ok" : failure;
}

it("the known-answer vectors cover every failure reason and both outcomes", () => {
  const covered = new Set(negatives.map((v) => (v.want.ok ? "" : v.want.reason)));
  expect([...covered].sort(), "reasons covered by negative vectors").toEqual(Object.keys(ALL_REASONS).sort());
  expect(positives.length, "positive vectors").toBeGreaterThanOrEqual(4);
});

it("the node:crypto verify answers synchronously (no promise)", () => {
  const v = positives[0];
  expect(verify(v.body, v.header, v.secret, { now: v.now }), "verify's return value").toEqual({ timestamp: v.timestamp });
});

describe.each(IMPLEMENTATIONS)("%s", (_implementation, impl) => {
  describe("known-answer vectors (computed by openssl, scripts/make-signature-vectors.sh)", () => {
    describe.each(positives.map((v) => [v.name, v] as const))("positive: %s", (_name, v) => {
      it("computeSignature gives the openssl digest", async () => {
        expect(await impl.computeSignature(v.body, v.secret, v.timestamp), v.note).toBe(v.digest);
      });
      it("sign gives t=<timestamp>,v1=<digest>", async () => {
        expect(await impl.sign(v.body, v.secret, { timestamp: v.timestamp }), v.note).toBe(`t=${v.timestamp},v1=${v.digest}`);
      });
      it.each([
        ["string", v.body],
        ["Uint8Array", new TextEncoder().encode(v.body)],
      ] as const)("verify accepts the header for a %s body", async (_kind, body) => {
        expect(await impl.verify(body, v.header, v.secret, { now: v.now }), v.note).toEqual({ timestamp: v.timestamp });
      });
    });

    describe.each(negatives.map((v) => [v.name, v] as const))("negative: %s", (_name, v) => {
      const want = v.want.ok ? "ok" : v.want.reason;
      it.each([
        ["string", v.body],
        ["Uint8Array", new TextEncoder().encode(v.body)],
      ] as const)(`verify of a %s body fails with ${want}`, async (_kind, body) => {
        expect(await outcomeOf(() => impl.verify(body, v.header, v.secret, { now: v.now })), v.note).toBe(want);
      });
    });
  });

  describe("WebhookSignatureError", () => {
    it("is a named Error with a reason and a distinct message per reason", async () => {
      const messages = new Map<string, string>();
      for (const v of negatives) {
        const failure = await failureOf(() => impl.verify(v.body, v.header, v.secret, { now: v.now }));
        expect(failure, v.name).toBeInstanceOf(WebhookSignatureError);
        const error = failure as WebhookSignatureError;
        expect(error, v.name).toBeInstanceOf(Error);
        expect(error.name, v.name).toBe("WebhookSignatureError");
        expect(error.message.length, `${v.name}: message should say what failed`).toBeGreaterThan(20);
        messages.set(error.reason, error.message);
      }
      const distinct = new Set(messages.values());
      expect(distinct.size, "one distinct message per reason").toBe(Object.keys(ALL_REASONS).length);
    });

    it("never echoes the secret in its message", async () => {
      const body = '{"id":"x"}';
      const header = sign(body, "whsec_other", { timestamp: T });
      const failure = await failureOf(() => impl.verify(body, header, SECRET, { now: T }));
      expect(typeof failure === "string" ? failure : failure.message).not.toContain(SECRET);
    });
  });

  describe("tolerance boundaries", () => {
    const body = '{"id":"evt_1"}';
    const header = sign(body, SECRET, { timestamp: T });
    const cases: Array<[string, { given: { ageSeconds: number; toleranceSeconds?: number }; want: string }]> = [
      ["signed now", { given: { ageSeconds: 0 }, want: "ok" }],
      ["exactly 300 s old passes", { given: { ageSeconds: 300 }, want: "ok" }],
      ["301 s old fails", { given: { ageSeconds: 301 }, want: "timestamp_too_old" }],
      ["exactly 300 s in the future passes", { given: { ageSeconds: -300 }, want: "ok" }],
      ["301 s in the future fails", { given: { ageSeconds: -301 }, want: "timestamp_in_future" }],
      ["300.5 s old fails (now with a fraction)", { given: { ageSeconds: 300.5 }, want: "timestamp_too_old" }],
      ["custom tolerance 10: 10 s old passes", { given: { ageSeconds: 10, toleranceSeconds: 10 }, want: "ok" }],
      ["custom tolerance 10: 11 s old fails", { given: { ageSeconds: 11, toleranceSeconds: 10 }, want: "timestamp_too_old" }],
      ["tolerance 0: 1 s ahead fails", { given: { ageSeconds: -1, toleranceSeconds: 0 }, want: "timestamp_in_future" }],
    ];
    it.each(cases)("%s", async (_name, { given, want }) => {
      const now = T + given.ageSeconds;
      expect(await outcomeOf(() => impl.verify(body, header, SECRET, { now, toleranceSeconds: given.toleranceSeconds }))).toBe(want);
    });

    it("defaults now to the clock", async () => {
      const before = Math.floor(Date.now() / 1000);
      const { timestamp } = await impl.verify(body, await impl.sign(body, SECRET), SECRET);
      const after = Math.floor(Date.now() / 1000);
      expect(timestamp, "sign() stamps the current Unix second").toBeGreaterThanOrEqual(before);
      expect(timestamp, "sign() stamps the current Unix second").toBeLessThanOrEqual(after);
      const stale = sign(body, SECRET, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
      expect(await outcomeOf(() => impl.verify(body, stale, SECRET)), "an hour-old header").toBe("timestamp_too_old");
    });

    it.each([
      ["negative tolerance", { toleranceSeconds: -1 }],
      ["NaN tolerance", { toleranceSeconds: Number.NaN }],
      ["infinite now", { now: Number.POSITIVE_INFINITY }],
    ])("rejects %s as a programming error (RangeError)", async (_name, options) => {
      await expect(impl.verify(body, header, SECRET, options)).rejects.toThrow(RangeError);
    });
  });

  describe("raw body forms", () => {
    const text = '{"name":"Zoë","emoji":"🌴"}';
    const header = sign(text, SECRET, { timestamp: T });
    const utf8 = new TextEncoder().encode(`xx${text}yy`);
    const cases: Array<[string, { given: string | Uint8Array; want: string }]> = [
      ["string", { given: text, want: "ok" }],
      ["Buffer", { given: Buffer.from(text, "utf8"), want: "ok" }],
      ["plain Uint8Array", { given: new TextEncoder().encode(text), want: "ok" }],
      ["Uint8Array view into a larger buffer", { given: utf8.subarray(2, utf8.length - 2), want: "ok" }],
      ["Latin-1 bytes of the same text", { given: Buffer.from(text, "latin1"), want: "no_matching_signature" }],
      ["body with a trailing newline", { given: `${text}\n`, want: "no_matching_signature" }],
    ];
    it.each(cases)("%s", async (_name, { given, want }) => {
      expect(await outcomeOf(() => impl.verify(given, header, SECRET, { now: T }))).toBe(want);
    });

    it("sign gives the same header for a string and its UTF-8 bytes", async () => {
      expect(await impl.sign(new TextEncoder().encode(text), SECRET, { timestamp: T })).toBe(header);
    });

    it("refuses a parsed object with a TypeError that says to pass the raw body", async () => {
      const parsed = JSON.parse(text) as unknown as string;
      await expect(impl.verify(parsed, header, SECRET, { now: T })).rejects.toThrow(/raw request body/);
    });
  });

  describe("secrets", () => {
    const body = '{"id":"evt_rotate"}';
    const signedWithNew = sign(body, "whsec_new", { timestamp: T });
    const cases: Array<[string, { given: string | string[]; want: string }]> = [
      ["the signing secret", { given: "whsec_new", want: "ok" }],
      ["old and new during rotation", { given: ["whsec_old", "whsec_new"], want: "ok" }],
      ["new and old (order does not matter)", { given: ["whsec_new", "whsec_old"], want: "ok" }],
      ["only other secrets", { given: ["whsec_old", "whsec_older"], want: "no_matching_signature" }],
      ["the secret without its whsec_ prefix", { given: "new", want: "no_matching_signature" }],
    ];
    it.each(cases)("verify with %s", async (_name, { given, want }) => {
      expect(await outcomeOf(() => impl.verify(body, signedWithNew, given, { now: T }))).toBe(want);
    });

    it.each([
      ["an empty string", ""],
      ["an empty array", []],
      ["an array holding an empty string", ["whsec_new", ""]],
    ])("verify refuses %s as a secret (TypeError, not a signature failure)", async (_name, secret) => {
      await expect(impl.verify(body, signedWithNew, secret, { now: T })).rejects.toThrow(TypeError);
    });

    it("sign refuses an empty secret and a non-integer timestamp", async () => {
      await expect(impl.sign(body, "", { timestamp: T }), "empty secret").rejects.toThrow(TypeError);
      await expect(impl.sign(body, SECRET, { timestamp: 1.5 }), "fractional timestamp").rejects.toThrow(RangeError);
      await expect(impl.sign(body, SECRET, { timestamp: -1 }), "negative timestamp").rejects.toThrow(RangeError);
    });
  });

  describe("header forms", () => {
    const body = "{}";
    const header = sign(body, SECRET, { timestamp: T });
    const cases: Array<[string, { given: string | string[] | null | undefined; want: string }]> = [
      ["a string", { given: header, want: "ok" }],
      ["a one-element array (Node's repeated-header form)", { given: [header], want: "ok" }],
      ["two whole headers (two t entries)", { given: [header, header], want: "malformed_header" }],
      ["undefined", { given: undefined, want: "missing_header" }],
      ["null (fetch's Headers.get of an absent header)", { given: null, want: "missing_header" }],
      ["only spaces", { given: "   ", want: "missing_header" }],
    ];
    it.each(cases)("%s", async (_name, { given, want }) => {
      expect(await outcomeOf(() => impl.verify(body, given, SECRET, { now: T }))).toBe(want);
    });
  });

  describe("properties", () => {
    const bodies = fc.uint8Array({ maxLength: 512 });
    const secrets = fc.string({ minLength: 1, maxLength: 40 }).map((s) => `whsec_${s}`);

    it("sign then verify accepts any body and secret", async () => {
      await fc.assert(
        fc.asyncProperty(bodies, secrets, fc.integer({ min: 0, max: 4_000_000_000 }), async (body, secret, t) => {
          expect(await impl.verify(body, await impl.sign(body, secret, { timestamp: t }), secret, { now: t })).toEqual({ timestamp: t });
        }),
      );
    });

    it("the signer agrees with the other implementation's on any body and secret", async () => {
      await fc.assert(
        fc.asyncProperty(bodies, secrets, async (body, secret) => {
          expect(await impl.sign(body, secret, { timestamp: T })).toBe(await signAsync(body, secret, { timestamp: T }));
          expect(await impl.sign(body, secret, { timestamp: T })).toBe(sign(body, secret, { timestamp: T }));
        }),
      );
    });

    it("changing any one byte of the body makes verification fail", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uint8Array({ minLength: 1, maxLength: 256 }),
          fc.nat(),
          fc.integer({ min: 1, max: 255 }),
          async (body, at, delta) => {
            const header = sign(body, SECRET, { timestamp: T });
            const changed = Uint8Array.from(body);
            changed[at % changed.length] = (changed[at % changed.length] + delta) % 256;
            expect(await outcomeOf(() => impl.verify(changed, header, SECRET, { now: T }))).toBe("no_matching_signature");
          },
        ),
      );
    });

    it("arbitrary header text never escapes as anything but WebhookSignatureError or success", async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 200 }), async (header) => {
          const failure = await failureOf(() => impl.verify("{}", header, SECRET, { now: T }));
          expect(typeof failure === "string" ? failure : "named error").toMatch(/^(named error|verify returned normally)$/);
        }),
      );
    });
  });
});

describe("parseSignatureHeader (shared by both)", () => {
  const ok: Array<[string, { given: string; want: { timestamp: number; signatures: string[] } }]> = [
    ["one v1", { given: "t=1,v1=abc", want: { timestamp: 1, signatures: ["abc"] } }],
    ["two v1 in order", { given: "t=5,v1=aa,v1=bb", want: { timestamp: 5, signatures: ["aa", "bb"] } }],
    ["t after v1", { given: "v1=aa,t=7", want: { timestamp: 7, signatures: ["aa"] } }],
    ["unknown schemes skipped", { given: "t=7,v0=zz,v2=yy,v1=aa", want: { timestamp: 7, signatures: ["aa"] } }],
    ["whitespace around entries", { given: " t=7 , v1=aa ", want: { timestamp: 7, signatures: ["aa"] } }],
    ["value containing =", { given: "t=7,v1=a=b", want: { timestamp: 7, signatures: ["a=b"] } }],
  ];
  it.each(ok)("parses %s", (_name, { given, want }) => {
    expect(parseSignatureHeader(given)).toEqual(want);
  });

  const bad: Array<[string, { given: string; want: WebhookSignatureErrorReason }]> = [
    ["no t", { given: "v1=aa", want: "malformed_header" }],
    ["two t", { given: "t=1,t=2,v1=aa", want: "malformed_header" }],
    ["empty entry", { given: "t=1,,v1=aa", want: "malformed_header" }],
    ["trailing comma", { given: "t=1,v1=aa,", want: "malformed_header" }],
    ["entry without =", { given: "t=1,v1", want: "malformed_header" }],
    ["empty value", { given: "t=1,v1=", want: "malformed_header" }],
    ["empty key", { given: "t=1,=aa", want: "malformed_header" }],
    ["semicolons instead of commas", { given: "t=1;v1=aa", want: "timestamp_not_integer" }],
    ["negative t", { given: "t=-1,v1=aa", want: "timestamp_not_integer" }],
    ["exponent t", { given: "t=1e9,v1=aa", want: "timestamp_not_integer" }],
    ["hex t", { given: "t=0x10,v1=aa", want: "timestamp_not_integer" }],
    ["t beyond safe integers", { given: "t=99999999999999999999,v1=aa", want: "timestamp_not_integer" }],
    ["no v1", { given: "t=1,v0=aa", want: "no_v1_signature" }],
    ["uppercase V1 is not v1", { given: "t=1,V1=aa", want: "no_v1_signature" }],
  ];
  it.each(bad)("refuses %s", async (_name, { given, want }) => {
    expect(await outcomeOf(async () => parseSignatureHeader(given))).toBe(want);
  });
});
