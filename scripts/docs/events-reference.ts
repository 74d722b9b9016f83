// The events reference: the AsyncAPI document through @asyncapi/html-template (singleFile: scripts
// and styles inline), rendered by the generator library in a child process (events-worker.cjs), not
// by the asyncapi CLI, which fetches a registry URL first and fails offline.
import { fileURLToPath } from "node:url";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { injectNav } from "./layout.js";
import { runNode } from "./run-tool.js";

const WORKER = fileURLToPath(new URL("./events-worker.cjs", import.meta.url));

/** Pure: the template's page with the site nav; refuses a page that would load anything from elsewhere. */
export function finishEventsReference(html: string): string {
  const external = /<(link|script|img)[^>]+(href|src)="(https?:)?\/\//i.exec(html);
  if (external) throw new Error(`the events page loads an external asset: ${external[0].slice(0, 120)}`);
  // The template's prose styles wrap inline code in literal backticks; the code style marks it already.
  return injectNav(html, "events", "code::before,code::after{content:none !important;}");
}

export async function buildEventsReference({ specPath, outFile, cwd }: { specPath: string; outFile: string; cwd: string }): Promise<void> {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "docs-asyncapi-"));
  try {
    await runNode([WORKER, specPath, tmp, "events.html"], {
      cwd,
      env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: "true", NODE_ENV: "production" },
    }).catch((error: Error) => {
      throw new Error(`@asyncapi/html-template failed: ${error.message}`);
    });
    const html = await fs.readFile(path.join(tmp, "events.html"), "utf8");
    await fs.writeFile(outFile, finishEventsReference(html));
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}
