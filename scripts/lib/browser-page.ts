// What a script that drives a browser page shares with the browser tests: Debian's Chromium headless
// shell (never a downloaded browser) and its flags, and a static server for a page's files on
// 127.0.0.1 (a secure context, so Web Crypto is there) on an ephemeral port.
import { createServer, type Server } from "node:http";

// Chromium without its windows (the build Playwright runs headless tests in): the same engine, and
// a fifth less CPU than the full browser's --headless over the docs site's two suites (57 s against 69 s).
export const CHROMIUM = "/usr/bin/chromium-headless-shell";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Work no page asks for: extensions, default apps, the full browser's address-bar popups. Without
  // these flags the docs site's visit (test/docs/site.test.ts alone) took 44-46 s of CPU, against 40-43 s.
  "--disable-extensions",
  "--disable-component-extensions-with-background-pages",
  "--disable-default-apps",
  "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
];

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
