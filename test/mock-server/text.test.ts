// The one place the mock turns outside text into something a message, log line or CLI line may quote.
import { describe, expect, test } from "vitest";
import { errorText, maskSecrets, oneLine, printable } from "../../mock/kernel/text.js";

describe("printable", () => {
  const cases: [string, { given: [string, number]; want: string }][] = [
    ["plain text stays", { given: ["/v1/leaverequest/list", 80], want: "/v1/leaverequest/list" }],
    ["control characters and line breaks become ?", { given: ["/v1/a\r\nSet-Cookie: x\u0000", 80], want: "/v1/a??Set-Cookie: x?" }],
    ["non-ASCII becomes ?", { given: ["/v1/é", 80], want: "/v1/?" }],
    ["exactly the limit stays whole", { given: ["abcde", 5], want: "abcde" }],
    ["beyond the limit is cut, ... included in the limit", { given: ["abcdef", 5], want: "ab..." }],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    expect(printable(...given)).toBe(want);
  });
});

describe("oneLine and errorText", () => {
  test("white space runs, line breaks included, become one space; long text is cut at 300 by default", () => {
    expect(oneLine("  boom\n   at x.ts:1\n")).toBe("boom at x.ts:1");
    expect(oneLine("a".repeat(400))).toHaveLength(300);
    expect(oneLine("abcdef", 5)).toBe("ab...");
  });

  test.each([
    [new TypeError("bad"), "TypeError: bad"],
    ["thrown text", "thrown text"],
    [42, "42"],
  ] as const)("errorText(%s) is %j", (error, want) => {
    expect(errorText(error)).toBe(want);
  });
});

describe("maskSecrets: the one mask of signing secrets (CLI lines, the journal's bodies, the proxy's report)", () => {
  const cases: [string, { given: string; want: string }][] = [
    ["a secret in quoted JSON", { given: '{"secret":"whsec_AbC+/=_-9"}', want: '{"secret":"whsec_…"}' }],
    ["every character the control API lets a secret hold, a dot included", { given: "--secret whsec_abc.def-ghi", want: "--secret whsec_…" }],
    ["two secrets in a query, the parameter after them kept", { given: "?a=whsec_one&b=whsec_two&c=3", want: "?a=whsec_…&b=whsec_…&c=3" }],
    ["text without one stays", { given: "unexpected argument \"sk_live\"", want: "unexpected argument \"sk_live\"" }],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    expect(maskSecrets(given)).toBe(want);
  });
});
