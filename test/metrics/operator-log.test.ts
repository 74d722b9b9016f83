// The operator's log (mock/kernel/operator-log.ts): the same events as text lines (as they always
// were) or as one JSON object a line, time, level and event first, each line on the stream it always
// went to; and serve's --log-format flag that chooses between them.
import { describe, expect, it } from "vitest";
import { createOperatorLog, type LogFields, type LogFormat, type LogLevel } from "../../mock/kernel/operator-log.js";
import { announceReady, parseServeArgs } from "../../mock/cli/commands/serve.js";
import { DEMO_KEYS } from "../../mock/keys/demo-keys.js";

const NOW = Date.parse("2026-11-23T09:15:00.000Z");

type Case = [string, { given: { format: LogFormat; level: LogLevel; event: string; text: string; fields?: LogFields }; want: { out: string[]; err: string[] } }];

const cases: Case[] = [
  ["a request line in text", { given: { format: "text", level: "info", event: "request", text: "GET /v1/department/list 200 1.2 ms", fields: { status: 200 } }, want: { out: ["GET /v1/department/list 200 1.2 ms"], err: [] } }],
  [
    "a request line in JSON: its fields, undefined ones left out, the text as message",
    {
      given: { format: "json", level: "info", event: "request", text: "GET / 404 0.3 ms", fields: { method: "GET", status: 404, caller: undefined } },
      want: { out: ['{"time":"2026-11-23T09:15:00.000Z","level":"info","event":"request","method":"GET","status":404,"message":"GET / 404 0.3 ms"}'], err: [] },
    },
  ],
  [
    "a field may not replace time, level or event",
    { given: { format: "json", level: "info", event: "delivery", text: "webhook …", fields: { time: "then", event: "other", ms: 12 } }, want: { out: ['{"time":"2026-11-23T09:15:00.000Z","level":"info","event":"delivery","ms":12,"message":"webhook …"}'], err: [] } },
  ],
  ["an error goes to the error output", { given: { format: "json", level: "error", event: "error", text: "hr-mock: internal error" }, want: { out: [], err: ['{"time":"2026-11-23T09:15:00.000Z","level":"error","event":"error","message":"hr-mock: internal error"}'] } }],
  ["an error in text is its line", { given: { format: "text", level: "error", event: "error", text: "hr-mock: internal error" }, want: { out: [], err: ["hr-mock: internal error"] } }],
];

describe("createOperatorLog", () => {
  it.each(cases)("%s", (_name, { given, want }) => {
    const out: string[] = [];
    const err: string[] = [];
    createOperatorLog(given.format, { out: (l) => out.push(l), err: (l) => err.push(l) }, () => NOW).event(given.level, given.event, given.text, given.fields);
    expect({ out, err }).toEqual(want);
  });

  it.each([
    ["ready", "info", "out"],
    ["stopped", "info", "err"],
    ["store-lost", "warn", "err"],
    ["store-back", "info", "err"],
  ] as const)("the lifecycle event %s is %s, on the %s stream", (event, level, stream) => {
    const lines: Record<string, string[]> = { out: [], err: [] };
    createOperatorLog("json", { out: (l) => lines.out.push(l), err: (l) => lines.err.push(l) }, () => NOW).lifecycle(event, `hr-mock: ${event}`, { store: "redis://:***@127.0.0.1:6379" });
    expect(JSON.parse(lines[stream][0])).toEqual({ time: "2026-11-23T09:15:00.000Z", level, event, store: "redis://:***@127.0.0.1:6379", message: `hr-mock: ${event}` });
  });
});

describe("hr-mock serve --log-format", () => {
  it.each([
    ["no flag", [], "text"],
    ["text", ["--log-format", "text"], "text"],
    ["json", ["--log-format", "json"], "json"],
  ] as const)("%s: %s", (_name, argv, want) => {
    const settings = parseServeArgs([...argv]);
    expect(settings !== "help" && settings.logFormat).toBe(want);
  });

  it("anything else is one line naming the flag and the formats", () => {
    expect(() => parseServeArgs(["--log-format", "yaml"])).toThrow(/--log-format must be text or json, got "yaml"/);
  });
});

describe("hr-mock serve's ready", () => {
  // What announceReady reads of a running mock: its address, keys, state, and its log.
  const mockWith = (log: ReturnType<typeof createOperatorLog>) =>
    ({
      url: "http://127.0.0.1:4011",
      docsUrl: "http://127.0.0.1:4011/docs/",
      docsBuilt: false,
      startupMs: 250,
      keys: DEMO_KEYS.map((k) => ({ ...k, organizationId: "o", organizationName: `Org ${k.organisation}`, permissions: [...k.permissions], demo: true })),
      shared: { store: "redis://:***@127.0.0.1:6379", cluster: false },
      log,
    }) as never;

  it.each([
    ["text: the banner with the demo keys", "text", (out: string[], written: string) => {
        expect(out, "event lines").toEqual([]);
        expect(written).toMatch(/^hr-mock: HR service mock ready in 1\.23 s /);
        expect(written, "the demo keys").toContain(DEMO_KEYS[0].key);
      },
    ],
    [
      "json: one ready event naming the address and the store, never a key",
      "json",
      (out: string[], written: string) => {
        expect(written, "nothing beside the event").toBe("");
        expect(out.map((line) => JSON.parse(line))).toEqual([{ time: "2026-11-23T09:15:00.000Z", level: "info", event: "ready", url: "http://127.0.0.1:4011", seconds: 1.234, store: "redis://:***@127.0.0.1:6379", message: "hr-mock: HR service mock ready at http://127.0.0.1:4011 in 1.23 s" }]);
      },
    ],
  ] as const)("%s", (_name, format, check) => {
    const out: string[] = [];
    let written = "";
    const settings = parseServeArgs(["--log-format", format, "--state", "redis://127.0.0.1:6379"]);
    if (settings === "help") throw new Error("parsed as --help");
    announceReady(mockWith(createOperatorLog(format, { out: (l) => out.push(l), err: (l) => out.push(l) }, () => NOW)), settings, 1234, { write: (text: string) => ((written += text), true) });
    check(out, written);
  });
});
