// What the browser suites share: Debian's Chromium driven by playwright-core (never a downloaded
// browser), a page bundle made by esbuild from TypeScript sources, and a static server for it on
// 127.0.0.1 (a secure context, so Web Crypto is there) on an ephemeral port.
import { createServer, type Server } from "node:http";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * One ES module for the browser from a TypeScript entry given as text (imports resolved from
 * `resolveDir`). platform "browser": a Node built-in anywhere in the graph fails the build.
 */
export async function bundleForBrowser(entry: string, resolveDir: string): Promise<string> {
  const result = await build({
    stdin: { contents: entry, resolveDir, loader: "ts", sourcefile: "page-entry.ts" },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "chrome120",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

export interface StaticSite {
  /** Origin without a trailing slash, e.g. http://127.0.0.1:40123 */
  url: string;
  close(): Promise<void>;
}

/** Serves fixed files by path (e.g. "/" and "/app.js"); anything else is a 404. */
export function serveStatic(files: Record<string, { type: string; body: string }>): Promise<StaticSite> {
  const server: Server = createServer((req, res) => {
    const file = files[(req.url ?? "/").split("?")[0]];
    if (!file) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": file.type, "Cache-Control": "no-store" }).end(file.body);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** A page that loads one module script and nothing else. */
export function modulePage(title: string, script: string): Record<string, { type: string; body: string }> {
  return {
    "/": { type: "text/html; charset=utf-8", body: `<!doctype html><meta charset="utf-8"><title>${title}</title><script type="module" src="/app.js"></script>` },
    "/app.js": { type: "text/javascript; charset=utf-8", body: script },
  };
}
