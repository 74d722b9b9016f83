// TypeScript 7, the native compiler (devDependency "typescript-native", an alias of typescript
// 7.x), for what the command line does: type checks and emit. It finds the same errors as
// TypeScript 5 for a fifth of the CPU (`/usr/bin/time tsc --noEmit -p .` here: 32 s of CPU with
// TypeScript 5, 6 s with 7 on one thread). "typescript" stays 5.x for the tools that use its API
// (openapi-typescript, rollup-plugin-dts, the architecture test).
// Both packages declare a `tsc` bin, and which one node_modules/.bin/tsc links to depends on the
// order npm installs them: scripts run this one by its path, never `tsc` from .bin.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

/** The native compiler's command line (its bin, a Node script starting the platform's binary). */
export const NATIVE_TSC = path.join(path.dirname(createRequire(import.meta.url).resolve("typescript-native/package.json")), "bin", "tsc");

/**
 * Compiler options of the tests' one-off checks (a tsconfig.json they write): strict, ES2022 modules
 * resolved as Node does, no emit, no ambient types, the libraries' own .d.ts files left to their
 * authors. Each adds its `lib` and files.
 */
export const STRICT_CHECK = { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", types: [] as string[], skipLibCheck: true };

export interface TscRun {
  /** Exit status: 0 clean, non-zero when it reported errors or could not run. */
  status: number | null;
  /** What it printed, stdout and stderr together. */
  output: string;
}

/**
 * Runs the native tsc with `args` in `cwd` (without blocking this process) and collects what it
 * printed. On one thread: its parallel checkers cost about a quarter more CPU (tsc --noEmit -p .,
 * 7.8 s against 6.2 s here) and the suite and the build keep both cores busy anyway.
 */
export function nativeTsc(args: string[], cwd: string): Promise<TscRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NATIVE_TSC, "--pretty", "false", "--singleThreaded", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, output }));
  });
}

/**
 * What tsc printed (--pretty false) by the file each error names: "file(line,col): error TS…" starts
 * an error and its indented lines belong to it; anything else it printed (an error of no file, a
 * crash) is "(no file)"'s.
 */
export function errorsByFile(output: string): Map<string, string[]> {
  const errors = new Map<string, string[]>();
  for (const block of output.split(/\n(?=\S)/).filter((b) => b.trim())) {
    const file = /^([^(\n]+)\(\d+,\d+\): /.exec(block)?.[1] ?? "(no file)";
    errors.set(file, [...(errors.get(file) ?? []), block.trim()]);
  }
  return errors;
}
