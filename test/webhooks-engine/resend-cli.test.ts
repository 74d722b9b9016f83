// `hr-mock resend`, in process through run() (mock/cli/main.ts) as the bin runs it: one event by id
// (--endpoint), or a filter (--failed, --succeeded, --type, --endpoint, --since, --until) with
// --dry-run; exit 0 when sent or counted, 1 for the mock's refusal or an unreachable mock, 2 for bad
// input, each failure one line "hr-mock resend: …".
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { run } from "../../mock/cli/main.js";
import { describeBulk, RESEND_HELP } from "../../mock/cli/commands/resend.js";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { RawReceiver } from "./resend-support.js";

let mock: RunningMock;
let receiver: RawReceiver;
let ok: string;
let down: string;
let payroll: string;
let loan: string;

beforeAll(async () => {
  [mock, receiver] = await Promise.all([startMock({ port: 0, rateLimit: "off", webhooks: { timeScale: 0.0000001 } }), new RawReceiver().start()]);
  receiver.status.set("/down", 500);
  ok = (await mock.webhooks.addEndpoint({ url: receiver.url("/ok") })).id;
  down = (await mock.webhooks.addEndpoint({ url: receiver.url("/down") })).id;
  payroll = (await mock.trigger("payroll.paid")).event.id;
  loan = (await mock.trigger("loan.disbursed")).event.id;
  // At this time scale the schedule's two days are about 15 ms: the receiver that answers 500 fails every attempt of it at once.
  await mock.webhooks.idle();
});
afterAll(async () => {
  await mock?.close();
  await receiver?.close();
});

/** Runs `hr-mock resend …` against the mock; its exit status and what it printed. */
async function resend(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let [stdout, stderr] = ["", ""];
  const code = await run(["resend", ...args, "--mock-url", mock.url], (text) => void (stderr += text), { write: (text: string) => (stdout += text) });
  return { code, stdout, stderr };
}

describe("hr-mock resend", () => {
  test("an event id: sent again to the endpoints it went to; one line says so", async () => {
    const before = receiver.of(payroll).length;
    const { code, stdout, stderr } = await resend(payroll);
    expect([code, stderr]).toEqual([0, ""]);
    expect(stdout).toMatch(new RegExp(`^Resent payroll\\.paid event ${payroll} \\(occurredAt [0-9T:.-]+Z\\) to 2 endpoints: ${receiver.url("/ok")}, ${receiver.url("/down")}\\n$`));
    await mock.webhooks.idle();
    expect(receiver.of(payroll).length, "both endpoints got it again").toBeGreaterThanOrEqual(before + 2);
    expect((await mock.webhooks.deliveries({ eventId: payroll })).filter((d) => d.resendOf !== null).map((d) => d.endpointId).sort()).toEqual([ok, down].sort());
  });

  test("--endpoint and --json: the control API's answer, to that endpoint only", async () => {
    const { code, stdout } = await resend(loan, "--endpoint", ok, "--json");
    expect(code).toBe(0);
    const answer = JSON.parse(stdout);
    expect(answer.event.id).toBe(loan);
    expect(answer.deliveries.map((d: { endpointId: string }) => d.endpointId)).toEqual([ok]);
  });

  test("--failed --since 1h --dry-run lists what would be sent and sends nothing; without --dry-run it sends them", async () => {
    await mock.webhooks.idle();
    const requests = receiver.requests.length;
    const dry = await resend("--failed", "--since", "1h", "--dry-run");
    expect(dry.code, dry.stderr).toBe(0);
    const lines = dry.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("Would resend 2 deliveries of 2 events (nothing sent; run it again without --dry-run to send them):");
    expect(lines.slice(1).sort()).toEqual([`  loan.disbursed ${loan} -> ${receiver.url("/down")}`, `  payroll.paid ${payroll} -> ${receiver.url("/down")}`].sort());
    expect(receiver.requests.length, "a dry run sends nothing").toBe(requests);

    const sent = await resend("--failed", "--since", "1h");
    expect(sent.stdout.split("\n")[0]).toBe("Resent 2 deliveries of 2 events:");
    await mock.webhooks.idle();
    expect(receiver.requests.length - requests, "two deliveries more, each attempted on the schedule").toBeGreaterThanOrEqual(2);
  });

  test("a filter that matches nothing says so", async () => {
    const { code, stdout } = await resend("--succeeded", "--until", "1h", "--dry-run");
    expect([code, stdout]).toEqual([0, "No finished delivery matches the filter; nothing would be sent.\n"]);
  });

  test("deliveries whose bodies an earlier mock's state did not keep are counted, never left out silently", () => {
    expect(describeBulk({ dryRun: false, count: 0, notKept: 2, deliveries: [] })).toBe(
      "No finished delivery matches the filter; nothing was sent.\n2 deliveries more match but cannot be sent again: the bodies of their events were not kept (a state directory of an earlier mock).\n",
    );
  });

  const usage: Array<[string, { given: string[]; want: string }]> = [
    ["nothing to send", { given: [], want: "give an event id, or a filter: --failed, --succeeded, --type, --endpoint, --since or --until" }],
    ["--dry-run alone", { given: ["--dry-run"], want: "give an event id, or a filter: --failed, --succeeded, --type, --endpoint, --since or --until" }],
    ["two event ids", { given: ["6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04", "6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b05"], want: 'one event id at a time, got 2: "6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04" "6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b05"; to send several, use a filter' }],
    ["an event id that is not a uuid", { given: ["42"], want: 'an event id is a uuid (the delivery log\'s eventId), got "42"' }],
    ["an event id and a filter", { given: ["6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04", "--failed"], want: "--failed is a filter, which does not go with an event id; give one or the other" }],
    ["--failed and --succeeded", { given: ["--failed", "--succeeded"], want: "--failed and --succeeded exclude each other; give one" }],
    ["an unknown type", { given: ["--type", "leave.teleported"], want: 'unknown event type "leave.teleported"; one of approval.completed, candidate.stage_changed, employee.created, employee.terminated, leave.approved, leave.cancelled, leave.rejected, leave.requested, loan.disbursed, offer.accepted, payroll.paid, payroll.transfer_failed, webhook.test' }],
    ["a time it cannot read", { given: ["--failed", "--since", "yesterday"], want: '--since must be an ISO time (2026-11-23T09:00:00Z) or a span back from now (90s, 30m, 2h, 1d), got "yesterday"' }],
    ["an endpoint id that is not a uuid", { given: ["--endpoint", "hooks"], want: '--endpoint must be an endpoint\'s id (a uuid), got "hooks"' }],
    ["an unknown flag", { given: ["--faild"], want: "unknown option --faild" }],
  ];
  test.each(usage)("%s: exit 2 and one line", async (_name, { given, want }) => {
    const { code, stderr } = await resend(...given);
    expect(code).toBe(2);
    expect(stderr).toBe(`hr-mock resend: ${want} (see hr-mock resend --help)\n`);
  });

  const failures: Array<[string, { given: string[]; want: RegExp }]> = [
    ["an event the log does not have", { given: ["6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04"], want: /^hr-mock resend: the mock answered 404: Not found: no event with id 6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04 in this organisation's delivery log \(eventId\)\.\n$/ }],
    ["a key without Manage Webhooks", { given: ["--failed", "--api-key", DEMO_KEY.org1Full], want: /^hr-mock resend: the mock answered 403: Forbidden: .*Manage Webhooks.*\n$/ }],
  ];
  test.each(failures)("%s: exit 1 and the mock's message on one line", async (_name, { given, want }) => {
    const { code, stderr } = await resend(...given);
    expect(code).toBe(1);
    expect(stderr).toMatch(want);
  });

  test("a mock that cannot be reached: exit 1, one line", async () => {
    const gone = await new RawReceiver().start();
    const url = gone.url("");
    await gone.close();
    let stderr = "";
    expect(await run(["resend", "--failed", "--mock-url", url], (text) => void (stderr += text), { write: () => true })).toBe(1);
    expect(stderr).toMatch(/^hr-mock resend: cannot reach the mock at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\); is hr-mock serve running there\?\n$/);
  });

  test("--help prints the command's help, and hr-mock --help names the command", async () => {
    let stdout = "";
    expect(await run(["resend", "--help"], () => {}, { write: (text: string) => (stdout += text) })).toBe(0);
    expect(stdout).toBe(RESEND_HELP);
    stdout = "";
    await run(["--help"], () => {}, { write: (text: string) => (stdout += text) });
    expect(stdout).toMatch(/^ {2}resend {4,}Send events of a running mock's delivery log again/m);
  });
});
