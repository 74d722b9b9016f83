import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  computeSignature,
  parseSignatureHeader,
  sign,
  verify,
  WebhookSignatureError,
  type WebhookSignatureErrorReason,
} from "../../src/webhooks/index.js";
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

/** The error verify threw, or a description of the fact that it did not throw. */
function failureOf(run: () => unknown): WebhookSignatureError | string {
  try {
    run();
    return "verify returned normally";
  } catch (error) {
    return error instanceof WebhookSignatureError ? error : `threw a non-WebhookSignatureError: ${String(error)}`;
  }
}

function reasonOf(run: () => unknown): string {
  const failure = failureOf(run);
  return typeof failure === "string" ? failure : failure.reason;
}

describe("known-answer vectors (computed by openssl, scripts/make-signature-vectors.sh)", () => {
  it("cover every failure reason and both outcomes", () => {
    const covered = new Set(negatives.map((v) => (v.want.ok ? "" : v.want.reason)));
    expect([...covered].sort(), "reasons covered by negative vectors").toEqual(Object.keys(ALL_REASONS).sort());
    expect(positives.length, "positive vectors").toBeGreaterThanOrEqual(4);
  });

  describe.each(positives.map((v) => [v.name, v] as const))("positive: %s", (_name, v) => {
    it("computeSignature gives the openssl digest", () => {
      expect(computeSignature(v.body, v.secret, v.timestamp), v.note).toBe(v.digest);
    });
    it("sign gives t=<timestamp>,v1=<digest>", () => {
      expect(sign(v.body, v.secret, { timestamp: v.timestamp }), v.note).toBe(`t=${v.timestamp},v1=${v.digest}`);
    });
    it.each([
      ["string", v.body],
      ["Buffer", Buffer.from(v.body, "utf8")],
    ] as const)("verify accepts the header for a %s body", (_kind, body) => {
      expect(verify(body, v.header, v.secret, { now: v.now }), v.note).toEqual({ timestamp: v.timestamp });
    });
  });

  describe.each(negatives.map((v) => [v.name, v] as const))("negative: %s", (_name, v) => {
    const want = v.want.ok ? "ok" : v.want.reason;
    it.each([
      ["string", v.body],
      ["Buffer", Buffer.from(v.body, "utf8")],
    ] as const)(`verify of a %s body fails with ${want}`, (_kind, body) => {
      expect(reasonOf(() => verify(body, v.header, v.secret, { now: v.now })), v.note).toBe(want);
    });
  });
});

describe("WebhookSignatureError", () => {
  it("is a named Error with a reason and a distinct message per reason", () => {
    const messages = new Map<string, string>();
    for (const v of negatives) {
      const failure = failureOf(() => verify(v.body, v.header, v.secret, { now: v.now }));
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

  it("never echoes the secret in its message", () => {
    const body = '{"id":"x"}';
    const header = sign(body, "whsec_other", { timestamp: T });
    const failure = failureOf(() => verify(body, header, SECRET, { now: T }));
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
  it.each(cases)("%s", (_name, { given, want }) => {
    const now = T + given.ageSeconds;
    const outcome = reasonOf(() => verify(body, header, SECRET, { now, toleranceSeconds: given.toleranceSeconds }));
    expect(outcome === "verify returned normally" ? "ok" : outcome).toBe(want);
  });

  it("defaults now to the clock", () => {
    const before = Math.floor(Date.now() / 1000);
    const { timestamp } = verify(body, sign(body, SECRET), SECRET);
    const after = Math.floor(Date.now() / 1000);
    expect(timestamp, "sign() stamps the current Unix second").toBeGreaterThanOrEqual(before);
    expect(timestamp, "sign() stamps the current Unix second").toBeLessThanOrEqual(after);
    const stale = sign(body, SECRET, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(reasonOf(() => verify(body, stale, SECRET)), "an hour-old header").toBe("timestamp_too_old");
  });

  it.each([
    ["negative tolerance", { toleranceSeconds: -1 }],
    ["NaN tolerance", { toleranceSeconds: Number.NaN }],
    ["infinite now", { now: Number.POSITIVE_INFINITY }],
  ])("rejects %s as a programming error (RangeError)", (_name, options) => {
    expect(() => verify(body, header, SECRET, options)).toThrow(RangeError);
  });
});

describe("raw body forms", () => {
  const text = '{"name":"Zoë","emoji":"🌴"}';
  const header = sign(text, SECRET, { timestamp: T });
  const inLargerBuffer = Buffer.from(`xx${text}yy`, "utf8");
  const cases: Array<[string, { given: string | Uint8Array; want: string }]> = [
    ["string", { given: text, want: "ok" }],
    ["Buffer", { given: Buffer.from(text, "utf8"), want: "ok" }],
    ["plain Uint8Array", { given: new TextEncoder().encode(text), want: "ok" }],
    ["Uint8Array view into a larger buffer", { given: inLargerBuffer.subarray(2, inLargerBuffer.length - 2), want: "ok" }],
    ["Latin-1 bytes of the same text", { given: Buffer.from(text, "latin1"), want: "no_matching_signature" }],
    ["body with a trailing newline", { given: `${text}\n`, want: "no_matching_signature" }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    const outcome = reasonOf(() => verify(given, header, SECRET, { now: T }));
    expect(outcome === "verify returned normally" ? "ok" : outcome).toBe(want);
  });

  it("sign gives the same header for a string and its UTF-8 bytes", () => {
    expect(sign(Buffer.from(text, "utf8"), SECRET, { timestamp: T })).toBe(header);
  });

  it("refuses a parsed object with a TypeError that says to pass the raw body", () => {
    const parsed = JSON.parse(text) as unknown as string;
    expect(() => verify(parsed, header, SECRET, { now: T })).toThrow(/raw request body/);
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
  it.each(cases)("verify with %s", (_name, { given, want }) => {
    const outcome = reasonOf(() => verify(body, signedWithNew, given, { now: T }));
    expect(outcome === "verify returned normally" ? "ok" : outcome).toBe(want);
  });

  it.each([
    ["an empty string", ""],
    ["an empty array", []],
    ["an array holding an empty string", ["whsec_new", ""]],
  ])("verify refuses %s as a secret (TypeError, not a signature failure)", (_name, secret) => {
    expect(() => verify(body, signedWithNew, secret, { now: T })).toThrow(TypeError);
  });

  it("sign refuses an empty secret and a non-integer timestamp", () => {
    expect(() => sign(body, "", { timestamp: T }), "empty secret").toThrow(TypeError);
    expect(() => sign(body, SECRET, { timestamp: 1.5 }), "fractional timestamp").toThrow(RangeError);
    expect(() => sign(body, SECRET, { timestamp: -1 }), "negative timestamp").toThrow(RangeError);
  });
});

describe("parseSignatureHeader", () => {
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
  it.each(bad)("refuses %s", (_name, { given, want }) => {
    expect(reasonOf(() => parseSignatureHeader(given))).toBe(want);
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
    ["null", { given: null, want: "missing_header" }],
    ["only spaces", { given: "   ", want: "missing_header" }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    const outcome = reasonOf(() => verify(body, given, SECRET, { now: T }));
    expect(outcome === "verify returned normally" ? "ok" : outcome).toBe(want);
  });
});

describe("properties", () => {
  const bodies = fc.uint8Array({ maxLength: 512 });
  const secrets = fc.string({ minLength: 1, maxLength: 40 }).map((s) => `whsec_${s}`);

  it("sign then verify accepts any body and secret", () => {
    fc.assert(
      fc.property(bodies, secrets, fc.integer({ min: 0, max: 4_000_000_000 }), (body, secret, t) => {
        expect(verify(body, sign(body, secret, { timestamp: t }), secret, { now: t })).toEqual({ timestamp: t });
      }),
    );
  });

  it("changing any one byte of the body makes verification fail", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 256 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (body, at, delta) => {
          const header = sign(body, SECRET, { timestamp: T });
          const changed = Uint8Array.from(body);
          changed[at % changed.length] = (changed[at % changed.length] + delta) % 256;
          expect(reasonOf(() => verify(changed, header, SECRET, { now: T }))).toBe("no_matching_signature");
        },
      ),
    );
  });

  it("arbitrary header text never escapes as anything but WebhookSignatureError or success", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (header) => {
        const failure = failureOf(() => verify("{}", header, SECRET, { now: T }));
        expect(typeof failure === "string" ? failure : "named error").toMatch(/^(named error|verify returned normally)$/);
      }),
    );
  });
});

describe("src/webhooks dependencies", () => {
  // A receiver that only verifies signatures must install nothing heavy (design.md).
  const dir = join(import.meta.dirname, "../../src/webhooks");
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts"));
  const builtins = new Set(builtinModules);

  it("the generated webhook facts it may import are constants that import nothing", () => {
    expect(importsOf(readFileSync(join(dir, "../../generated/webhook-facts.ts"), "utf8"), "webhook-facts.ts")).toEqual([]);
  });

  it("finds the module's source files", () => {
    expect(files, "src/webhooks/*.ts").toEqual(
      expect.arrayContaining(["signature.ts", "errors.ts", "construct-event.ts", "receiver.ts", "index.ts"]),
    );
  });

  it.each(files)("%s imports only node: built-ins, siblings, (type-only) generated/events and the generated webhook facts", (file) => {
    for (const { specifier, typeOnly } of importsOf(readFileSync(join(dir, file), "utf8"), file)) {
      const allowed =
        (specifier.startsWith("node:") && builtins.has(specifier.slice(5))) ||
        /^\.\/[a-z-]+\.js$/.test(specifier) ||
        (specifier === "../../generated/events.js" && typeOnly) ||
        specifier === "../../generated/webhook-facts.js";
      expect(allowed, `${file} imports ${specifier}${typeOnly ? " (type-only)" : ""}`).toBe(true);
    }
  });
});

/** Every module specifier in a source file, with whether the import is erased at run time. */
function importsOf(source: string, fileName: string): Array<{ specifier: string; typeOnly: boolean }> {
  const found: Array<{ specifier: string; typeOnly: boolean }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly ?? false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) {
        found.push({ specifier: node.arguments[0].text, typeOnly: false });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true));
  return found;
}
