// The command line: `hr-mock trigger` (exit 0 queued, 1 a failure the mock answers, 2 bad input)
// and the webhook flags of `hr-mock serve`, ending with the walk-through: serve --webhook-url
// in its own process, a verifying receiver, trigger leave.approved, the API shows Approved.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseServeArgs } from "../../mock/cli/commands/serve.js";
import { receiveCommand } from "../../mock/cli/commands/receive.js";
import { triggerCommand } from "../../mock/cli/commands/trigger.js";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { WebhookEngine } from "../../mock/webhooks/engine.js";
import { WebhookOptionError } from "../../mock/webhooks/settings.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { hrMockArgs } from "../support/hr-mock.js";
import { TestReceiver } from "./support.js";

function output() {
  let text = "";
  return { write: (chunk: string) => (text += chunk), get text() { return text; } };
}

let mock: RunningMock;
let receiver: TestReceiver;
beforeAll(async () => {
  mock = await startMock({ port: 0, webhooks: { timeScale: 0.0001 } });
  receiver = await new TestReceiver().start();
  receiver.useSecret((await mock.webhooks.addEndpoint({ url: receiver.url })).secret);
});
afterAll(async () => {
  await mock?.close();
  await receiver?.close();
});

describe("hr-mock trigger, in-process", () => {
  test("queues the event, prints one line with its id and data, and the receiver gets it", async () => {
    const stdout = output();
    const stderr = output();
    const code = await triggerCommand(["payroll.paid", "--mock-url", mock.url], { stdout, stderr });
    expect(code, stderr.text).toBe(0);
    const id = /event ([0-9a-f-]{36})/.exec(stdout.text)?.[1];
    expect(id, stdout.text).toBeDefined();
    expect(stdout.text).toContain(`1 delivery: ${receiver.url}`);
    expect((await receiver.event(id!)).type).toBe("payroll.paid");
  });

  test("--json prints the control API's answer", async () => {
    const stdout = output();
    expect(await triggerCommand(["offer.accepted", "--json", "--mock-url", mock.url, "--id", "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9"], { stdout })).toBe(0);
    expect(JSON.parse(stdout.text).event.data.offerId).toBe("5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9");
  });

  const failures: Array<[string, { given: string[]; want: RegExp }]> = [
    ["a key without Manage Webhooks", { given: ["payroll.paid", "--api-key", DEMO_KEY.org1Full], want: /answered 403: Forbidden: .*Manage Webhooks/ }],
    ["an unknown record", { given: ["leave.approved", "--id", "00000000-0000-4000-8000-000000000000"], want: /answered 404: Not found: .*00000000-0000-4000-8000-000000000000/ }],
    ["a record in the wrong state", { given: ["leave.approved", "--id", "{approved}"], want: /answered 400: Bad request: .* is Approved/ }],
  ];
  test.each(failures)("%s: exit status 1 and the mock's message on one line", async (_name, { given, want }) => {
    const stderr = output();
    const args = given.map((a) => (a === "{approved}" ? mock.ids[0].approvedLeaveRequestId : a));
    expect(await triggerCommand([...args, "--mock-url", mock.url], { stdout: output(), stderr })).toBe(1);
    expect(stderr.text).toMatch(want);
    expect(stderr.text.trim().split("\n"), "one line").toHaveLength(1);
  });

  test("a mock that cannot be reached: exit status 1", async () => {
    const closed = await new TestReceiver().start();
    const url = closed.server.url;
    await closed.close();
    const stderr = output();
    expect(await triggerCommand(["payroll.paid", "--mock-url", url], { stdout: output(), stderr })).toBe(1);
    expect(stderr.text).toMatch(/cannot reach the mock/);
  });

  const usage: Array<[string, { given: string[]; want: RegExp }]> = [
    ["no type", { given: [], want: /an event type is required/ }],
    ["an unknown type", { given: ["leave.teleported"], want: /unknown event type "leave.teleported"; one of approval.completed/ }],
    ["two types", { given: ["payroll.paid", "loan.disbursed"], want: /one event type at a time/ }],
    ["an id that is not a uuid", { given: ["leave.approved", "--id", "42"], want: /--id must be a uuid/ }],
    ["a mock URL that is not http", { given: ["payroll.paid", "--mock-url", "ftp://x"], want: /--mock-url must be/ }],
    ["an unknown option", { given: ["payroll.paid", "--colour"], want: /unknown option --colour/ }],
  ];
  test.each(usage)("bad input (%s) throws one line: exit status 2 from the CLI", async (_name, { given, want }) => {
    await expect(triggerCommand(given, { stdout: output(), stderr: output() })).rejects.toThrow(want);
  });
});

describe("hr-mock serve's webhook flags", () => {
  const cases: Array<[string, { given: string[]; want: object | RegExp }]> = [
    ["none: development mode, no endpoint", { given: [], want: { options: { strictUrls: false, shuffle: false } } }],
    ["an endpoint with a secret and two types", { given: ["--webhook-url", "http://127.0.0.1:3000/hooks", "--webhook-secret", "whsec_abcdefghijklmnop1234", "--events", "leave.approved, leave.cancelled"], want: { endpoint: { url: "http://127.0.0.1:3000/hooks", secret: "whsec_abcdefghijklmnop1234", events: ["leave.approved", "leave.cancelled"] } } }],
    ["every option", { given: ["--strict-urls", "--time-scale", "0.001", "--duplicate-rate", "0.5", "--shuffle"], want: { options: { strictUrls: true, timeScale: 0.001, duplicateRate: 0.5, shuffle: true } } }],
    ["--events without --webhook-url", { given: ["--events", "leave.approved"], want: /--events needs --webhook-url/ }],
    ["--webhook-secret without --webhook-url", { given: ["--webhook-secret", "whsec_abcdefghijklmnop1234"], want: /--webhook-secret needs --webhook-url/ }],
    ["a URL strict mode refuses", { given: ["--strict-urls", "--webhook-url", "http://127.0.0.1:3000/hooks"], want: /--webhook-url: url must start with https:\/\// }],
    ["a secret without whsec_", { given: ["--webhook-url", "http://127.0.0.1:3000/", "--webhook-secret", "abc"], want: /^--webhook-secret: secret must match pattern "\^whsec_/ }],
    ["an unknown event type", { given: ["--webhook-url", "http://127.0.0.1:3000/", "--events", "leave.approved,nope"], want: /--events: .*"nope"/ }],
    ["a time scale of 0", { given: ["--time-scale", "0"], want: /--time-scale must be a number above 0/ }],
    ["a duplicate rate above 1", { given: ["--duplicate-rate", "2"], want: /--duplicate-rate must be a number from 0 to 1/ }],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    const parse = () => parseServeArgs(given);
    if (want instanceof RegExp) expect(parse).toThrow(want);
    else expect((parse() as { webhooks: unknown }).webhooks).toMatchObject(want);
  });

  // The flags take exactly what the engine takes: a value the flag accepts never fails at start-up.
  type Given = { flag: "--time-scale" | "--duplicate-rate"; option: "timeScale" | "duplicateRate"; value: number };
  const boundaries: Array<[string, { given: Given }]> = [
    ...[0, 1e-6, 0.001, 1, 100, 100.5, -1].map((value): [string, { given: Given }] => [`--time-scale ${value}`, { given: { flag: "--time-scale", option: "timeScale", value } }]),
    ...[-0.1, 0, 0.5, 1, 1.01].map((value): [string, { given: Given }] => [`--duplicate-rate ${value}`, { given: { flag: "--duplicate-rate", option: "duplicateRate", value } }]),
  ];
  test.each(boundaries)("%s: the flag and the engine agree", (_name, { given }) => {
    const flagAccepts = (() => {
      try {
        parseServeArgs([given.flag, String(given.value)]);
        return true;
      } catch {
        return false;
      }
    })();
    const engineAccepts = (() => {
      try {
        new WebhookEngine(mock.dataset, { [given.option]: given.value });
        return true;
      } catch (error) {
        if (!(error instanceof WebhookOptionError)) throw error;
        return false;
      }
    })();
    expect(flagAccepts, `flag ${given.flag} ${given.value} vs engine ${given.option}`).toBe(engineAccepts);
  });

  test.each([[0], [-5], [1.5], [Number.NaN]])("the engine refuses a delivery log limit of %s", (logLimit) => {
    expect(() => new WebhookEngine(mock.dataset, { logLimit })).toThrow(/logLimit must be a whole number/);
  });

  test("a time scale that is no number is refused with one line", () => {
    expect(() => parseServeArgs(["--time-scale", "fast"])).toThrow(/^--time-scale must be/);
  });
});

describe("as a developer runs it: serve in its own process, receive and trigger beside it", () => {
  // serve runs until a signal, so it is a process of its own; receive and trigger run in-process
  // through their commands (test/mock-server/cli.test.ts shows the bin's own exit statuses).
  test("serve --webhook-url prints the secret; receive verifies; trigger leave.approved; the API shows Approved", async () => {
    const hooks = await new TestReceiver().start();
    const port = hooks.server.port;
    await hooks.close(); // a free port for `hr-mock receive`
    const serve = spawn(process.execPath, [...(await hrMockArgs()), "serve", "--port", "0", "--webhook-url", `http://127.0.0.1:${port}/hooks`, "--time-scale", "0.001"], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    const stopReceiving = new AbortController();
    let receiving: Promise<number> | undefined;
    try {
      const banner = await readUntil(serve, /Trigger: .*\n/);
      const url = /API {3}(http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
      const secret = /Signing secret \(shown once\): (whsec_\S+)/.exec(banner)?.[1];
      expect(url, banner).toBeDefined();
      expect(secret, banner).toBeDefined();

      // The receive command as the banner prints it.
      const printed = /Receive: {2}npx hr-mock receive (.*)\n/.exec(banner)?.[1];
      expect(printed, `the banner's receive command: ${banner}`).toBeDefined();
      const received = output();
      const receiverLog = output();
      let listening!: () => void;
      const ready = new Promise<void>((resolve) => (listening = resolve));
      const log = { write: (text: string) => (receiverLog.write(text), /Receiving webhooks/.test(receiverLog.text) && listening()) };
      receiving = receiveCommand([...printed!.split(" "), "--json"], { stdout: received, stderr: log, signal: stopReceiving.signal });
      await ready;

      const triggered = output();
      const triggerErrors = output();
      expect(await triggerCommand(["leave.approved", "--mock-url", url!], { stdout: triggered, stderr: triggerErrors }), triggerErrors.text).toBe(0);
      const eventId = /event ([0-9a-f-]{36})/.exec(triggered.text)?.[1];
      await until(() => received.text.includes(`"id":"${eventId}"`), `the receiver printed event ${eventId}`);
      const event = JSON.parse(received.text.split("\n").find((l) => l.includes(eventId!))!);
      expect(event.type).toBe("leave.approved");

      const details = await fetch(`${url}/v1/leaverequest/details/${event.data.leaveRequestId}`, { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
      expect((await details.json()).data.leaveStatus).toBe("Approved");
    } finally {
      stopReceiving.abort();
      await receiving;
      serve.kill("SIGTERM");
    }
  });
});

/** Waits for `done()` to hold (polling every 20 ms), failing with `what` after 20 s. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); !done(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() - started > 20_000) throw new Error(`timed out waiting: ${what}`);
  }
}

/** Collects a child's output until the pattern matches; rejects if it exits first. */
function readUntil(child: ReturnType<typeof spawn>, pattern: RegExp, stream: "stdout" | "stderr" = "stdout"): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    let errors = "";
    const source = stream === "stdout" ? child.stdout! : child.stderr!;
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (pattern.test(text)) {
        source.off("data", onData);
        resolve(text);
      }
    };
    source.on("data", onData);
    if (stream === "stdout") child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`exited (${code}) before ${pattern}: ${text} ${errors}`)));
  });
}
