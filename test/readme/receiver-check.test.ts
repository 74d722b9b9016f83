// The README's two receivers keep the provider's rules, as checkReceiver grades them: the node:http
// one (createReceiver) run from its file as written, over HTTP, and the edge one's fetch handler in
// process. README.md embeds both files verbatim (readme.test.ts).
import fs from "node:fs";
import path from "node:path";
import type { RequestListener } from "node:http";
import { transformSync } from "esbuild";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as webhooksNode from "hr-service-contract/webhooks/node";
import { checkReceiver, type ReceiverReport } from "hr-service-contract/contract";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import worker from "./edge-snippet.js";

const SECRET = "whsec_readme_receivers";
const failing = (report: ReceiverReport) => report.cases.filter((c) => !c.ok).map((c) => `${c.name}: ${c.reason}`);

afterEach(() => vi.restoreAllMocks());

/**
 * Runs receiver-snippet.ts as written, its two imports given: the package's webhooks/node entry, and
 * a node:http whose createServer hands back the request listener and where the snippet asked to
 * listen (a test serves it on a free port instead of the snippet's 3000).
 */
function runReceiverSnippet(env: Record<string, string>): { listener: RequestListener; port: unknown; host: unknown } {
  const source = fs.readFileSync(path.join(repoRoot, "test/readme/receiver-snippet.ts"), "utf8");
  const { code } = transformSync(source, { loader: "ts", format: "cjs" });
  let served: { listener: RequestListener; port: unknown; host: unknown } | undefined;
  const http = { createServer: (listener: RequestListener) => ({ listen: (port: unknown, host: unknown) => (served = { listener, port, host }) }) };
  const modules: Record<string, unknown> = { "node:http": http, "hr-service-contract/webhooks/node": webhooksNode };
  const require = (name: string) => {
    if (!(name in modules)) throw new Error(`receiver-snippet.ts imports ${name}, which this test does not give it`);
    return modules[name];
  };
  new Function("require", "process", "module", "exports", code)(require, { env }, { exports: {} }, {});
  if (!served) throw new Error("receiver-snippet.ts did not start a server");
  return served;
}

describe("the README's receivers pass checkReceiver", () => {
  it("createReceiver (test/readme/receiver-snippet.ts), over HTTP", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const { listener, port, host } = runReceiverSnippet({ HR_WEBHOOK_SECRET: SECRET });
    expect({ port, host }, "where the snippet listens").toEqual({ port: 3000, host: "127.0.0.1" });
    const server = await webhooksNode.listen(listener, { port: 0 });
    try {
      const report = await checkReceiver({ url: `${server.url}/hooks` }, { secret: SECRET });
      expect(failing(report), "cases the snippet fails").toEqual([]);
      expect(report.ok).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("the edge example's fetch handler (test/readme/edge-snippet.ts), in process", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const report = await checkReceiver({ handler: (request) => worker.fetch(request, { HR_WEBHOOK_SECRET: SECRET }) }, { secret: SECRET });
    expect(failing(report), "cases the snippet fails").toEqual([]);
    expect(report.ok).toBe(true);
  });
});
