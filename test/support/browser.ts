// What the browser suites share: Debian's Chromium headless shell driven by playwright-core (never a downloaded
// browser), one for the whole run (started by the first file that asks, test/support/run-once.ts;
// each file connects to it and opens contexts of its own), a page bundle made by the one page build
// (scripts/lib/msw-bundle.ts) from TypeScript sources; Chromium's flags and the static server for a
// page come from scripts/lib/browser-page.ts, which the first-answer script uses too.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildPage } from "../../scripts/lib/msw-bundle.js";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/lib/browser-page.js";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from "playwright-core";
import { runFolder, sharedThisRun, stopAtEnd } from "./run-once.js";

export { CHROMIUM, CHROMIUM_ARGS, modulePage, serveStatic, type StaticSite } from "../../scripts/lib/browser-page.js";

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
 * `resolveDir`). platform "browser", no stand-ins: a Node built-in anywhere in the graph fails the build.
 */
export async function bundleForBrowser(entry: string, resolveDir: string): Promise<string> {
  const { files } = await buildPage({ entry: { source: entry, resolveDir }, shims: false });
  return files[0]!.text;
}
