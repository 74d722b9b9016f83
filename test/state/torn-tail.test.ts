// A crash in the middle of appending a data change leaves the last line of changes.jsonl unfinished.
// The start skips it, as before, but says so: one line through onError naming the file and what
// the line still shows of the change, the same facts in RunningMock.state.skipped, and hr-mock
// serve's state line. The changes before it come back; nothing on disk changes until the next
// change is written, which cuts the torn line off. A damaged complete line is still refused.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { stateLine as formatStateLine } from "../../mock/state/report.js";
import { startMock, type RunningMock, type StartMockOptions } from "../../mock/index.js";
import { LEAVE_STATUS_NAMES } from "../../mock/data/statuses.js";
import { StateError } from "../../mock/state/index.js";
import { newStateDir } from "./support.js";

const BASE = { port: 0, today: "2026-11-23", scale: 0.1, seed: 5 } satisfies StartMockOptions;

async function started(state: string): Promise<{ mock: RunningMock; lines: string[] }> {
  const lines: string[] = [];
  const mock = await startMock({ ...BASE, state, onError: (line) => lines.push(line) });
  return { mock, lines };
}

/** A state whose journal holds two changes, an approval then a cancellation; the second's line and the records both touched. */
async function twoChanges(): Promise<{ state: string; journal: string; approved: string; cancelled: string; organizationId: string }> {
  const state = newStateDir();
  const { mock } = await started(state);
  const approved = (await mock.trigger("leave.approved")).event.data as { leaveRequestId: string };
  const cancelled = (await mock.trigger("leave.cancelled", { id: mock.ids[0].approvedLeaveRequestId })).event;
  await mock.close();
  return { state, journal: join(state, "worlds", "default", "changes.jsonl"), approved: approved.leaveRequestId, cancelled: (cancelled.data as { leaveRequestId: string }).leaveRequestId, organizationId: cancelled.organizationId };
}

/** The journal with its last line cut to what `keep` leaves of it, and no newline: a write the mock never finished. */
function tear(journal: string, keep: (line: string) => string): string {
  const lines = readFileSync(journal, "utf8").split("\n").slice(0, -1);
  const torn = keep(lines[lines.length - 1]);
  writeFileSync(journal, `${lines.slice(0, -1).map((l) => `${l}\n`).join("")}${torn}`);
  return torn;
}

const statusOf = (mock: RunningMock, id: string) => {
  const request = mock.dataset.organizations[0].leaveRequests.find((r) => r.id === id);
  return request && LEAVE_STATUS_NAMES[request.statusId];
};

describe("a torn last line of changes.jsonl", () => {
  const cases: Array<[string, { keep: (line: string) => string; want: (s: { organizationId: string; cancelled: string }) => { change: object; said: string } }]> = [
    ["cut just after it began", { keep: (line) => line.slice(0, 18), want: () => ({ change: {}, said: "a change whose type cannot be read is lost" }) }],
    ["cut after the type", { keep: (line) => line.slice(0, line.indexOf('"type":"leave.cancelled"') + 25), want: ({ organizationId }) => ({ change: { type: "leave.cancelled", organizationId }, said: `a leave.cancelled change of organisation ${organizationId} is lost` }) }],
    ["whole but for its newline", { keep: (line) => line, want: ({ organizationId, cancelled }) => ({ change: { type: "leave.cancelled", organizationId, id: cancelled, at: expect.any(String) }, said: `a leave.cancelled change of organisation ${organizationId} (record ${cancelled}) made at ` }) }],
  ];
  test.each(cases)("%s: skipped and said, naming the file and what was lost; the changes before it come back", async (_name, { keep, want }) => {
    const made = await twoChanges();
    const torn = tear(made.journal, keep);
    const { mock, lines } = await started(made.state);
    try {
      const { change, said } = want(made);
      expect(mock.state?.skipped).toEqual([{ world: "default", file: made.journal, bytes: Buffer.byteLength(torn), change }]);
      expect(lines, "one line at start").toHaveLength(1);
      expect(lines[0]).toContain(`hr-mock: --state: the last line of ${made.journal} is unfinished (${Buffer.byteLength(torn)} bytes; the mock was stopped in the middle of writing it) and is skipped: ${said}`);
      expect(lines[0]).toMatch(/; fire it again if it is needed\.$/);
      expect(mock.state?.restored.changes, "the change before it is replayed").toBe(1);
      expect(statusOf(mock, made.approved), "the approval came back").toBe("Approved");
      expect(statusOf(mock, made.cancelled), "the torn cancellation did not").toBe("Approved");
      expect(formatStateLine(mock.state!), "hr-mock serve's line after the banner").toMatch(new RegExp(`; skipped 1 unfinished change \\(${"type" in change ? "leave\\.cancelled" : "a change of unreadable type"} at the end of .*changes\\.jsonl\\)\\.\\n$`));
    } finally {
      await mock.close();
    }
  });

  test("said at every start until a change is written, which cuts the torn line off", async () => {
    const made = await twoChanges();
    const torn = tear(made.journal, (line) => line.slice(0, 40));
    const second = await started(made.state);
    await second.mock.close();
    expect(readFileSync(made.journal, "utf8").endsWith(torn), "reading changes nothing on disk").toBe(true);
    const third = await started(made.state);
    expect(third.lines, "said again").toHaveLength(1);
    await third.mock.trigger("leave.approved");
    await third.mock.close();
    const fourth = await started(made.state);
    try {
      expect([fourth.lines, fourth.mock.state?.skipped], "nothing torn any more").toEqual([[], []]);
      expect(fourth.mock.state?.restored.changes).toBe(2);
    } finally {
      await fourth.mock.close();
    }
  });

  test("a sandbox's torn journal is said with its world", async () => {
    const state = newStateDir();
    const first = await started(state);
    const sandbox = await first.mock.createSandbox();
    const answer = await fetch(`${first.mock.url}/_mock/webhooks/events`, { method: "POST", headers: { authorization: `Bearer ${sandbox.key.org1WebhooksAdmin}`, "content-type": "application/json" }, body: JSON.stringify({ type: "leave.approved" }) });
    expect(answer.status).toBe(202);
    await first.mock.close();
    const journal = join(state, "worlds", sandbox.id, "changes.jsonl");
    tear(journal, (line) => line.slice(0, 60));
    const { mock, lines } = await started(state);
    try {
      expect(mock.state?.skipped.map((s) => [s.world, s.file])).toEqual([[sandbox.id, journal]]);
      expect(lines[0]).toContain(`the last line of ${journal} is unfinished`);
    } finally {
      await mock.close();
    }
  });

  test("a damaged last line that is whole (it ends with its newline) was edited, not torn: the start is refused with one line", async () => {
    const made = await twoChanges();
    writeFileSync(made.journal, `${readFileSync(made.journal, "utf8")}{"organizationId":\n`);
    const refused = await startMock({ ...BASE, state: made.state, onError: () => {} }).then(
      async (mock) => {
        await mock.close();
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(StateError);
    expect((refused as Error).message).toBe(`${made.journal} line 3 is not a data change (not JSON); the state directory was edited or damaged`);
  });
});
