// What the browser suites share: Debian's Chromium headless shell driven by playwright-core (never a downloaded
// browser), one for the whole run (started by the first file that asks, test/support/run-once.ts;
// each file connects to it and opens contexts of its own), a page bundle made by esbuild from
// TypeScript sources, and a static server for it on 127.0.0.1 (a secure context, so Web Crypto is
// there) on an ephemeral port.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { build } from "esbuild";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from "playwright-core";
import { runFolder, sharedThisRun, stopAtEnd } from "./run-once.js";

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

/** How long Chromium may take to start and say where it listens, however loaded the machine. */
const CHROMIUM_START_MS = 120_000;

/**
 * How long a page may take to load, render or answer before a browser step fails: a last resort,
 * long enough for a machine with every core busy (a step's failure names what it waited for).
 */
export const BROWSER_WAIT_MS = 120_000;

/** A context of this file's own on the run's Chromium, whose steps wait up to BROWSER_WAIT_MS. */
export async function openContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(BROWSER_WAIT_MS);
  context.setDefaultNavigationTimeout(BROWSER_WAIT_MS);
  return context;
}

/** Starts Chromium on its own (it outlives the file that started it) and answers its DevTools endpoint. */
async function startChromium(): Promise<string> {
  const profile = runFolder("chromium-profile");
  const log = fs.openSync(path.join(profile, "..", "chromium.log"), "a");
  const child = spawn(CHROMIUM, [...CHROMIUM_ARGS, "--remote-debugging-port=0", `--user-data-dir=${profile}`, "about:blank"], { detached: true, stdio: ["ignore", log, log] });
  fs.closeSync(log);
  child.unref();
  stopAtEnd(child.pid!);
  // Chromium writes the port and the path of its endpoint into the profile once it listens.
  const portFile = path.join(profile, "DevToolsActivePort");
  const started = Date.now();
  let exited: number | null | undefined;
  child.once("exit", (code) => (exited = code));
  for (;;) {
    const [port, endpoint] = fs.existsSync(portFile) ? fs.readFileSync(portFile, "utf8").split("\n") : [];
    if (port && endpoint) return `ws://127.0.0.1:${port}${endpoint}`;
    if (exited !== undefined) throw new Error(`${CHROMIUM} exited (${exited}) before it listened; see ${path.join(profile, "..", "chromium.log")}`);
    if (Date.now() - started > CHROMIUM_START_MS) throw new Error(`${CHROMIUM} wrote no DevToolsActivePort within ${CHROMIUM_START_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The run's Chromium, connected: contexts opened on it are this file's own. close() disconnects
 * and closes those contexts; the browser itself stops at the end of the run.
 */
export async function connectChromium(): Promise<Browser> {
  const { value: endpoint } = await sharedThisRun("chromium", startChromium);
  return chromium.connectOverCDP(endpoint, { timeout: CHROMIUM_START_MS });
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
