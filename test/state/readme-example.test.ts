// The guide's "State that survives a restart" example, run as written (the state directory and
// the receiver's address swapped for the test's, the time scale made ten times smaller, port 0
// added): serve with --state, trigger, kill -9,
// serve again: the data change, the endpoint and the waiting delivery come back, and the delivery
// arrives with the same event id, signed with the secret the first start printed.
import { spawn } from "node:child_process";
import { afterAll, expect, test } from "vitest";
import { parseServeArgs } from "../../mock/cli/commands/serve.js";
import { triggerCommand } from "../../mock/cli/commands/trigger.js";
import { DEMO_KEY } from "../../mock/index.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { TestReceiver } from "../webhooks-engine/support.js";
import { newStateDir } from "./support.js";
import { section, shLines, withoutComment } from "../readme/documents.js";
import { hrMockArgs } from "../support/hr-mock.js";
const [serveLine, triggerLine] = shLines(section("State that survives a restart").text).map(withoutComment);

const children: ReturnType<typeof spawn>[] = [];
const receiver = await new TestReceiver().start();
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await receiver.close();
});

async function serve(args: string[]) {
  const child = spawn(process.execPath, [...(await hrMockArgs()), ...args], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return child;
}

test("the guide's commands: serve --state, trigger, kill -9, serve again", async () => {
  expect(serveLine, "the section's first command").toMatch(/^npx hr-mock serve --state \.hr-mock-state --webhook-url http:\/\/127\.0\.0\.1:4500\/hooks/);
  expect(triggerLine, "the section's second command").toBe("npx hr-mock trigger leave.approved");
  const state = newStateDir();
  const guideArgs = serveLine.split(/\s+/).slice(2);
  expect(guideArgs.slice(-2), "the guide's time scale").toEqual(["--time-scale", "0.01"]);
  // At 0.001 the schedule's 5 s and 5 min are 5 ms and 0.3 s: the retry after the restart comes sooner.
  const args = [...guideArgs.slice(0, -1).map((a) => a.replace(".hr-mock-state", state).replace("http://127.0.0.1:4500/hooks", receiver.url)), "0.001", "--port", "0"];
  // Every attempt before the kill fails (at once, 5 ms later, perhaps 0.3 s later): the delivery is
  // still waiting when the first mock dies; after the restart the next attempt is verified.
  let killed = false;
  receiver.answer = () => (killed ? { kind: "verify" } : { kind: "status", status: 503 });

  const first = await serve(args);
  const banner = await readUntil(first, /Trigger: .*\n/);
  const url = /API {3}(http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
  const secret = /Signing secret \(shown once\): (whsec_\S+)/.exec(banner)?.[1];
  expect([url, secret], banner).not.toContain(undefined);
  receiver.useSecret(secret!);
  expect(banner).toContain(`State kept in ${state}: restored 0 data changes, 0 webhook endpoints, 0 waiting deliveries.`);

  let said = "";
  expect(await triggerCommand([...triggerLine.split(/\s+/).slice(3), "--mock-url", url!], { stdout: { write: (t: string) => (said += t) } })).toBe(0);
  const eventId = /event ([0-9a-f-]{36})/.exec(said)?.[1];
  await receiver.until(() => receiver.requests.length >= 2, "two failed attempts");
  first.kill("SIGKILL");
  await new Promise((resolve) => (first.exitCode !== null || first.signalCode !== null ? resolve(null) : first.once("exit", resolve)));
  killed = true;

  const second = await serve(args);
  const again = await readUntil(second, /Webhooks: .*\n/);
  expect(again).toContain(`State kept in ${state}: restored 1 data changes, 1 webhook endpoints, 1 waiting deliveries.`);
  expect(again, "the endpoint came back, not a second one").toMatch(/Webhooks: endpoint [0-9a-f-]{36} -> .* kept in .* with the signing secret it was given/);
  const event = await receiver.event(eventId!);
  expect(receiver.rejections, "signed with the secret the first start printed").toEqual([]);
  expect(event.type).toBe("leave.approved");
  const secondUrl = /API {3}(http:\/\/127\.0\.0\.1:\d+)/.exec(again)?.[1];
  const details = await fetch(`${secondUrl}/v1/leaverequest/details/${(event.data as { leaveRequestId: string }).leaveRequestId}`, { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
  expect((await details.json()).data.leaveStatus, "the data change came back").toBe("Approved");
  second.kill("SIGTERM");
}, 120_000);

test("--state needs a directory", () => {
  expect(() => parseServeArgs(["--state", " "])).toThrow(/^--state needs a value \(see hr-mock serve --help\)$/);
  expect(parseServeArgs(["--state", "s"])).toMatchObject({ state: "s" });
});

/** Collects a child's output until the pattern matches; rejects if it exits first. */
function readUntil(child: ReturnType<typeof spawn>, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    let errors = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (pattern.test(text)) {
        child.stdout!.off("data", onData);
        resolve(text);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`exited (${code}) before ${pattern}: ${text} ${errors}`)));
  });
}
