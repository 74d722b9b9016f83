#!/usr/bin/env node
// hr-mock, as installed: runs the compiled CLI in dist/. In a clone of the repository (where the
// TypeScript sources sit beside this file and the development tools are installed) it runs a
// development bundle of the sources (scripts/dev-bundle.ts), keyed on their content and built once
// per change, however many hr-mock start at the same time, so `npm start` and `npx hr-mock` there
// start fast and never run stale code; without the development tools (sources copied without
// them), the build.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { join } from "node:path";

const source = new URL("../cli/main.ts", import.meta.url);
const devBundleScript = new URL("../../scripts/dev-bundle.ts", import.meta.url);
const built = new URL("../dist/mock/cli/main.js", import.meta.url);

/** One line naming what to install when a library the mock needs cannot be loaded. */
function missingLibrary(error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND") return undefined;
  const name = /Cannot find package '([^']+)'/.exec(String(error.message))?.[1];
  return name
    ? `hr-mock: the library ${name} is missing; install it with "npm install ${name}", or reinstall hr-service-mock, which depends on it`
    : `hr-mock: this installation of hr-service-mock is incomplete (${String(error.message).split("\n")[0]}); reinstall it`;
}

/** In a clone: the URL of the development bundle's CLI, built first when its inputs changed. */
async function devBundle() {
  const { devBundleFolder } = await import(new URL("../../scripts/lib/dev-bundle-folder.mjs", import.meta.url).href);
  const folder = await devBundleFolder({
    root: fileURLToPath(new URL("../../", import.meta.url)),
    onBuild: () => process.stderr.write("hr-mock: building the mock from its sources, first run after a change…\n"),
    onWait: () => process.stderr.write("hr-mock: another hr-mock is building the mock from its sources; waiting for it…\n"),
    build: async (into) => {
      const { register } = await import("tsx/esm/api");
      register();
      const { buildDevBundle } = await import(devBundleScript.href);
      await buildDevBundle(into);
    },
  });
  return pathToFileURL(join(folder, "dist", "mock", "cli", "main.js")).href;
}

async function load() {
  if (existsSync(source) && existsSync(devBundleScript)) {
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
