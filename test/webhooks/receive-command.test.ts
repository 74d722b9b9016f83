// hr-mock receive: its flags, a verifying receiver on a port, --json lines, body limits, and the
// one-line summary of an event's data.
import { describe, expect, it } from "vitest";
import { receiveCommand, summarizeData } from "../../mock/cli/commands/receive.js";
import { createRejectionHints, HINT_AFTER } from "../../mock/cli/hints.js";
import { deliveryHeaders, eventBody, post, SECRET } from "./receiver-support.js";

describe("hr-mock receive", () => {
  it.each([
    ["an unknown flag", ["--port", "0", "--secret", "whsec_a", "--bogus"], /^unknown option --bogus \(see hr-mock receive --help\)$/],
    ["a missing --port", ["--secret", "whsec_a"], /^--port is required/],
    ["a missing --secret", ["--port", "0"], /^--secret is required/],
    ["a non-numeric port", ["--port", "eighty", "--secret", "whsec_a"], /^--port must be a whole number/],
    ["a secret without whsec_", ["--port", "0", "--secret", "sk_live_123"], /^--secret must be a signing secret/],
    ["a stray second secret", ["--port", "0", "--secret", "whsec_a", "whsec_b"], /^unexpected argument "whsec_…" \(see hr-mock receive --help\)$/],
  ])("throws one line for %s, without echoing secrets", async (_name, argv, want) => {
    const error = await receiveCommand(argv).then(
      () => new Error("receiveCommand resolved"),
      (e: Error) => e,
    );
    expect(error.message).toMatch(want);
    expect(error.message, "one line").not.toContain("\n");
    expect(error.message).not.toMatch(/sk_live_123|whsec_b/);
  });

  it("prints help", async () => {
    let out = "";
    await receiveCommand(["--help"], { stdout: { write: (t: string) => (out += t) } });
    expect(out).toMatch(/^Usage: hr-mock receive --port <port> --secret <whsec_\.\.\.>/);
  });

  it("prints one line per verified event and per rejection, never the secret, and stops on abort", async () => {
    const secret = "whsec_cli_secret_value";
    let out = "";
    let listening!: (url: string) => void;
    const started = new Promise<string>((resolve) => (listening = resolve));
    const lines: Array<() => void> = [];
    const stdout = {
      write: (text: string) => {
        out += text;
        const url = /at (http:\/\/\S+)/.exec(text);
        if (url) listening(url[1]);
        lines.forEach((wake) => wake());
      },
    };
    const nextLine = (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        const check = () => pattern.test(out) && resolve();
        lines.push(check);
        check();
      });
    const abort = new AbortController();
    const running = receiveCommand(["--port", "0", "--secret", secret, "--path", "/hooks"], {
      stdout,
      stderr: stdout,
      signal: abort.signal,
    });
    const url = await started;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/);

    const body = eventBody("evt-cli");
    const printed = nextLine(/leave\.approved {2}evt-cli {2}delivery=dlv_cli {2}leaveRequestId=/);
    expect((await post(url, body, deliveryHeaders(body, "dlv_cli", secret))).status).toBe(200);
    await printed;
    const rejectedLine = nextLine(/rejected {2}400 no_matching_signature {2}delivery=dlv_bad/);
    expect((await post(url, body, deliveryHeaders(body, "dlv_bad", "whsec_wrong"))).status).toBe(400);
    await rejectedLine;

    abort.abort();
    await running;
    expect(out).toMatch(/Receiver stopped\.\n$/);
    expect(out, "the secret is never printed").not.toContain(secret);
    await expect(fetch(url, { method: "POST" }), "the server is closed").rejects.toThrow();
  });

  it("says once that --secret is probably not the endpoint's when deliveries fail the signature in a row", async () => {
    let out = "";
    let listening!: (url: string) => void;
    const started = new Promise<string>((resolve) => (listening = resolve));
    const stdout = {
      write: (text: string) => {
        out += text;
        const url = /at (http:\/\/\S+)/.exec(text);
        if (url) listening(url[1]);
      },
    };
    const abort = new AbortController();
    const running = receiveCommand(["--port", "0", "--secret", "whsec_receiver_holds_this"], { stdout, stderr: stdout, signal: abort.signal });
    const url = await started;
    for (let i = 0; i < HINT_AFTER + 2; i++) {
      const body = eventBody(`evt-hint-${i}`);
      expect((await post(url, body, deliveryHeaders(body, `dlv_${i}`, "whsec_sender_signs_with_this"))).status).toBe(400);
    }
    abort.abort();
    await running;
    const hints = out.split("\n").filter((line) => line.startsWith("hint: "));
    expect(hints, out).toEqual([expect.stringMatching(new RegExp(`^hint: the last ${HINT_AFTER} deliveries were signed with a secret this receiver does not hold \\(no_matching_signature\\): --secret is probably not the endpoint's signing secret`))]);
    expect(out, "the secrets are never printed").not.toMatch(/whsec_receiver_holds_this|whsec_sender_signs_with_this/);
  });

  describe("the hint's rule", () => {
    const cases: [string, { given: string[]; want: (string | undefined)[] }][] = [
      ["three signature failures in a row: the hint, once", { given: ["no_matching_signature", "no_matching_signature", "no_matching_signature", "no_matching_signature"], want: [undefined, undefined, "secret", undefined] }],
      ["a verified delivery between: no run of three", { given: ["no_matching_signature", "no_matching_signature", "verified", "no_matching_signature", "no_matching_signature"], want: [undefined, undefined, undefined, undefined, undefined] }],
      ["stale and future timestamps are one cause: the clocks", { given: ["timestamp_too_old", "timestamp_in_future", "timestamp_too_old"], want: [undefined, undefined, "clock"] }],
      ["other reasons say nothing", { given: ["missing_header", "missing_header", "missing_header", "invalid_json"], want: [undefined, undefined, undefined, undefined] }],
    ];
    it.each(cases)("%s", (_name, { given, want }) => {
      const hint = createRejectionHints();
      const said = given.map((outcome) => hint(outcome)).map((line) => (line === undefined ? undefined : line.includes("--secret") ? "secret" : line.includes("clock") ? "clock" : line));
      expect(said).toEqual(want);
    });
  });

  it("with --json prints the full event as one JSON line on stdout, status lines on stderr", async () => {
    let out = "";
    let err = "";
    let listening!: (url: string) => void;
    const started = new Promise<string>((resolve) => (listening = resolve));
    let gotLine!: () => void;
    const line = new Promise<void>((resolve) => (gotLine = resolve));
    const abort = new AbortController();
    const running = receiveCommand(["--port", "0", "--secret", SECRET, "--json"], {
      stdout: { write: (t: string) => ((out += t), gotLine()) },
      stderr: {
        write: (t: string) => {
          err += t;
          const url = /at (http:\/\/\S+)\/ /.exec(t);
          if (url) listening(url[1]);
        },
      },
      signal: abort.signal,
    });
    const url = await started;
    const body = eventBody("evt-json");
    await post(url, body, deliveryHeaders(body, "d"));
    await line;
    abort.abort();
    await running;
    expect(out.split("\n").filter(Boolean).map((l) => JSON.parse(l))).toEqual([JSON.parse(body)]);
    expect(err).toMatch(/^Receiving webhooks at /);
  });
});

describe("hr-mock receive's one-line summary of data", () => {
  const leave = { leaveRequestId: "e4782859-2854-4f2d-9471-cd45bfbe17b0", employeeId: "7151c833-4464-4a05-bbfc-333e3c40bb15", leaveTypeId: "4df3e6a4-fc39-4f45-b3ae-515ab91f39ef", leaveType: "Annual Leave", startDate: "2027-03-08T00:00:00", endDate: "2027-03-10T00:00:00", status: "Approved" };
  const cases: Array<[string, { given: { data: unknown; maxLength?: number }; want: string }]> = [
    ["short data in full", { given: { data: { employeeId: "a", status: "Active" } }, want: "employeeId=a, status=Active" }],
    ["objects and lists left out", { given: { data: { id: "a", list: [1], nested: { b: 1 }, n: 3, ok: true, none: null } }, want: "id=a, n=3, ok=true, none=null" }],
    ["not an object", { given: { data: "text" }, want: "" }],
    ["whole fields only, the rest marked", { given: { data: leave, maxLength: 110 }, want: `leaveRequestId=${leave.leaveRequestId}, employeeId=${leave.employeeId}, …` }],
    ["a first field longer than the limit is kept whole", { given: { data: leave, maxLength: 20 }, want: `leaveRequestId=${leave.leaveRequestId}, …` }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(summarizeData(given.data, given.maxLength)).toBe(want);
  });

  it("a leave.approved line keeps every uuid whole at the default length", () => {
    const line = summarizeData(leave);
    for (const id of [leave.leaveRequestId, leave.employeeId, leave.leaveTypeId]) expect(line).toContain(id);
  });
});

