// The "Resend an event" section of docs/guides/receiving-webhooks.md tells the truth: its commands run as written against a mock (the
// mock's address and the ids it prints put in), its curl calls are answered 202, the engine offers
// the functions it names, and its bounds are the control document's x-mock-limits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mockLimits } from "../../generated/control-facts.js";
import { run } from "../../mock/cli/main.js";
import { startMock, type RunningMock } from "../../mock/index.js";
import { section, shLines } from "../readme/documents.js";
import { RawReceiver } from "../webhooks-engine/resend-support.js";

const { doc, text: guide } = section("Resend an event");
const GUIDE = `${doc.file}: Resend an event`;
const commands = shLines(guide).filter((line) => !line.startsWith("#"));
const hrMock = commands.filter((line) => line.startsWith("npx hr-mock "));
const curls = commands.filter((line) => line.startsWith("curl "));

let mock: RunningMock;
let receiver: RawReceiver;
const vars: Record<string, string> = {};
beforeAll(async () => {
  [mock, receiver] = await Promise.all([startMock({ port: 0, rateLimit: "off", webhooks: { timeScale: 0.0000001 } }), new RawReceiver().start()]);
  receiver.status.set("/down", 500);
  vars.ENDPOINT_ID = (await mock.webhooks.addEndpoint({ url: receiver.url("/ok") })).id;
  await mock.webhooks.addEndpoint({ url: receiver.url("/down") });
  vars.EVENT_ID = (await mock.trigger("leave.approved")).event.id;
  await mock.trigger("payroll.paid");
  // At this time scale the schedule's two days are about 15 ms: the receiver that answers 500 fails every attempt of it at once.
  await mock.webhooks.idle();
});
afterAll(async () => {
  await mock?.close();
  await receiver?.close();
});

/** A command line with the shell variables it uses put in. */
const filled = (line: string) => line.replace(/\$([A-Z_]+)/g, (_, name: string) => vars[name] ?? `$${name}`);

describe(GUIDE, () => {
  it("has the section 'Resend an event'", () => {
    expect(guide).toMatch(/^## Resend an event$/m);
  });

  it("states the bounds as the control document's x-mock-limits", () => {
    const text = guide.replace(/\s+/g, " ");
    for (const phrase of [`at most ${mockLimits.maxWaitingPerEndpoint.toLocaleString("en-US")} waiting deliveries`, `${mockLimits.maxWaiting.toLocaleString("en-US")} in all`]) expect(text, phrase).toContain(phrase);
  });

  it("gives hr-mock resend commands and curl calls", () => {
    expect(hrMock.length).toBeGreaterThanOrEqual(4);
    expect(hrMock.every((line) => line.startsWith("npx hr-mock resend ")), hrMock.join("\n")).toBe(true);
    expect(curls).toHaveLength(2);
  });

  it("its hr-mock commands run as written, in order (the mock's address added), each finished before the next", async () => {
    for (const line of hrMock) {
      const argv = filled(line).split(/\s+/).slice(2);
      let [stdout, stderr] = ["", ""];
      const code = await run([...argv, "--mock-url", mock.url], (text) => void (stderr += text), { write: (text: string) => (stdout += text) });
      expect(code, `${line}: ${stderr}`).toBe(0);
      expect(stdout, `${line} sends or counts something`).not.toMatch(/^No finished delivery/);
      // Both events failed at the endpoint answering 500, and the resends of the first failed there again.
      if (line.includes("--dry-run")) expect(stdout, line).toMatch(/^Would resend 2 deliveries of 2 events/);
      await mock.webhooks.idle();
    }
  });

  it("its curl calls are answered 202 (the mock's address put in)", async () => {
    for (const line of curls) {
      const method = /-X (\S+)/.exec(line)?.[1] ?? "GET";
      const headers = Object.fromEntries([...line.matchAll(/-H "([^:]+): ([^"]+)"/g)].map((m) => [m[1], m[2]]));
      const body = /-d '([^']*)'/.exec(line)?.[1];
      const url = new URL(filled(line).split(" ").at(-1)!);
      const response = await fetch(`${mock.url}${url.pathname}`, { method, headers, body });
      expect(response.status, `${line}: ${await response.clone().text()}`).toBe(202);
    }
  });

  it("names functions startMock's webhooks offers", () => {
    const named = [...guide.matchAll(/mock\.webhooks\.(\w+)\(/g)].map((m) => m[1]);
    expect(named.sort()).toEqual(["resend", "resendMatching"]);
    for (const name of named) expect(typeof (mock.webhooks as unknown as Record<string, unknown>)[name], name).toBe("function");
  });
});
