#!/usr/bin/env node
// hr-mock, as installed: runs the compiled CLI in dist/. In a clone of the repository (where the
// TypeScript sources sit beside this file and the development tools are installed) it runs a
// development bundle of the sources, rebuilt whenever a source is newer than it (scripts/dev-bundle.ts),
// so `npm start` and `npx hr-mock` there start fast and never run stale code; without the
// development tools (sources copied without them), the build.
import { existsSync, readdirSync, statSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { join } from "node:path";

const source = new URL("../cli/main.ts", import.meta.url);
const built = new URL("../dist/mock/cli/main.js", import.meta.url);

/** One line naming what to install when a library the mock needs cannot be loaded. */
function missingLibrary(error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND") return undefined;
  const name = /Cannot find package '([^']+)'/.exec(String(error.message))?.[1];
  return name
    ? `hr-mock: the library ${name} is missing; install it with "npm install ${name}", or reinstall hr-service-mock, which depends on it`
    : `hr-mock: this installation of hr-service-mock is incomplete (${String(error.message).split("\n")[0]}); reinstall it`;
}

/** The newest change (ms) of the files the development bundle is made from: the sources and the generated documents. */
function sourcesStamp(root) {
  let newest = 0;
  let count = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "dist") continue;
      const file = join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else {
        count++;
        newest = Math.max(newest, statSync(file).mtimeMs);
      }
    }
  };
  for (const dir of ["mock", "src", "generated", "scripts/lib"]) walk(join(root, dir));
  return `${Math.floor(newest)}-${count}`;
}

/** In a clone: the development bundle's CLI, built first when the sources changed; undefined without the tools to build it. */
async function devBundle() {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const stamp = sourcesStamp(root);
  const entry = join(root, "node_modules", ".cache", "hr-mock-dev", stamp, "dist", "mock", "cli", "main.js");
  if (existsSync(entry)) return pathToFileURL(entry).href;
  const { register } = await import("tsx/esm/api");
  register();
  const { buildDevBundle } = await import(new URL("../../scripts/dev-bundle.ts", import.meta.url).href);
  return pathToFileURL(await buildDevBundle(stamp)).href;
}

async function load() {
  if (existsSync(source)) {
    try {
      return await import(await devBundle());
    } catch (error) {
      // Without tsx (sources copied without their development tools) the build is the fallback.
      if (!(error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("'tsx'")) || !existsSync(built)) throw error;
    }
  }
  if (!existsSync(built)) throw new Error("hr-mock is not built: run npm run build, or use npm start in a clone");
  return import(built.href);
}

/**
 * npx (npm exec) and npm scripts run a bin through a shell: a SIGTERM to npm reaches that shell,
 * which ends without passing it on, and the mock went on serving on its port. Run by npm, the
 * mock watches its parent: once it is gone, the mock stops as a SIGTERM stops it (its deliveries
 * listed as on Ctrl-C). `npm start` execs node (package.json), so there the SIGTERM itself arrives.
 */
function stopWithParent() {
  if (!process.env.npm_command || process.platform === "win32") return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, "SIGTERM");
  }, 250);
  watch.unref();
}

try {
  stopWithParent();
  const cli = await load();
  // run() answers the exit status; a command that set its own (diff) keeps it unless it failed.
  const status = await cli.run(process.argv.slice(2));
  if (status !== 0) process.exitCode = status;
} catch (error) {
  process.stderr.write(`${missingLibrary(error) ?? `hr-mock: ${String(error?.message ?? error).split("\n")[0]}`}\n`);
  process.exitCode = 1;
}
