// --latency holds every API answer back by the given milliseconds. Checked without timing: the
// server's timers are faked, so the answer arrives exactly when the clock is moved past the delay.
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, test, vi } from "vitest";
import { DEMO_KEY, startMock } from "../../mock/index.js";

/** GET through node:http (its client sets no timers), resolving with the status when it arrives. */
function get(port: number, path: string, headers: Record<string, string>): { arrived: () => boolean; status: Promise<number> } {
  let done = false;
  const status = new Promise<number>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => {
        done = true;
        resolve(res.statusCode ?? 0);
      });
    });
    req.on("error", reject);
    req.end();
  });
  return { arrived: () => done, status };
}

/** Lets real I/O run for a while (setImmediate is not faked). */
async function letIoRun(turns = 200): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

afterEach(() => {
  vi.useRealTimers();
});

describe("latencyMs", () => {
  const cases: [string, { path: string; headers: Record<string, string>; want: number }][] = [
    ["a success", { path: "/v1/leavetype/list", headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` }, want: 200 }],
    ["a failure (401)", { path: "/v1/leavetype/list", headers: {}, want: 401 }],
    ["an unknown path (404)", { path: "/v9/nothing", headers: {}, want: 404 }],
  ];
  test.each(cases)("%s arrives only once the delay has passed", async (_name, { path, headers, want }) => {
    const mock = await startMock({ port: 0, latencyMs: 5_000, rateLimit: "off" });
    try {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const answer = get(mock.port, path, headers);
      await letIoRun();
      expect(answer.arrived(), "nothing before the delay").toBe(false);
      vi.advanceTimersByTime(4_999);
      await letIoRun();
      expect(answer.arrived(), "nothing 1 ms before the delay").toBe(false);
      vi.advanceTimersByTime(1);
      await letIoRun();
      expect(answer.arrived(), "the answer once the delay has passed").toBe(true);
      expect(await answer.status).toBe(want);
    } finally {
      vi.useRealTimers();
      await mock.close();
    }
  });

  test("without latency the answer needs no timer at all", async () => {
    const mock = await startMock({ port: 0, rateLimit: "off" });
    try {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const answer = get(mock.port, "/v1/leavetype/list", { authorization: `Bearer ${DEMO_KEY.org1Full}` });
      await letIoRun();
      expect(answer.arrived()).toBe(true);
    } finally {
      vi.useRealTimers();
      await mock.close();
    }
  });
});
