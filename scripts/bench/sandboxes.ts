// The cost of a sandbox, in-process at the default size: creating one through startMock's
// createSandbox (the control API's own operation: keys, counters, webhook service, a fork of the
// start dataset), its first change (the copy of one organisation's arrays and indexes), and the heap
// each holds, beside generating a dataset (what a sandbox would cost without copy on write).
import { createDataset } from "../../mock/data/dataset.js";
import { startMock } from "../../mock/index.js";
import { heapMb } from "./heap.js";

export interface SandboxCost {
  count: number;
  createMs: { median: number; max: number };
  createHeapMb: number;
  firstChangeMs: { median: number; max: number };
  firstChangeHeapMb: number;
  generateMs: number;
}


const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] };
};

export async function measureSandboxes(count = 50, log: (line: string) => void = () => {}): Promise<SandboxCost> {
  const mock = await startMock({ port: 0, today: "2026-11-02", rateLimit: "off", log: false });
  try {
    const generated: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      createDataset({ seed: 1, today: "2026-11-02" });
      generated.push(performance.now() - started);
    }
    // One sandbox first, so code paths are warm and the spec is loaded.
    await (await mock.createSandbox()).delete();
    log(`creating ${count} sandboxes through createSandbox…`);
    const before = heapMb();
    const creates: number[] = [];
    const sandboxes = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      sandboxes.push(await mock.createSandbox());
      creates.push(performance.now() - started);
    }
    const created = heapMb();
    log(`approving a leave request in each (the first change copies organisation 1)…`);
    const changes: number[] = [];
    for (const sandbox of sandboxes) {
      const started = performance.now();
      const answer = await fetch(`${mock.url}/_mock/webhooks/events`, {
        method: "POST",
        headers: { authorization: `Bearer ${sandbox.key.org1WebhooksAdmin}`, "content-type": "application/json" },
        body: JSON.stringify({ type: "leave.approved" }),
      });
      await answer.arrayBuffer();
      changes.push(performance.now() - started);
      if (answer.status !== 202) throw new Error(`the trigger in a sandbox answered ${answer.status}`);
    }
    const changed = heapMb();
    return {
      count,
      createMs: stats(creates),
      createHeapMb: (created - before) / count,
      firstChangeMs: stats(changes),
      firstChangeHeapMb: (changed - created) / count,
      generateMs: stats(generated).median,
    };
  } finally {
    await mock.close();
  }
}
