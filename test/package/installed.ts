// How the package test runs what it installed: the bins as processes, the command lines' modules in
// this process (under node_modules, so vitest leaves them to Node's own loader, as a user's node
// loads them), node scripts in a project, and tsc over a consumer file with a tsconfig's options.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { errorsByFile, nativeTsc } from "../../scripts/lib/native-tsc.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import type { InstalledMock } from "./shared-state.js";

export const bin = (project: string, name: string) => path.join(project, "node_modules", ".bin", name);

/** Starts the installed hr-mock serve on a free port (with `args`) and resolves with its URL once its banner holds `until` too. */
export function startInstalledMock(project: string, args: string[] = [], until = /^/): Promise<InstalledMock> {
  const child = spawn(process.execPath, [bin(project, "hr-mock"), "serve", "--port", "0", ...args], { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hr-mock serve printed no API address (and ${until}) within 120 s: ${stdout}${stderr}`)), 120_000);
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const url = /API\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      if (url && until.test(stdout)) clearTimeout(timer), resolve({ url, child, stdout: () => stdout, stderr: () => stderr });
    });
    child.on("exit", (code) => reject(new Error(`hr-mock serve exited (${code}) before it was ready: ${stderr.trim()}`)));
  });
}

/** A Node project's compiler options (the repository's @types/node) and a browser project's (DOM, no Node types), as a tsconfig.json writes them. */
export const NODE_PROJECT = {
  target: "es2022",
  module: "nodenext",
  moduleResolution: "nodenext",
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  // TypeScript's own lib files are not the packages' (as BROWSER_PROJECT says).
  skipDefaultLibCheck: true,
  typeRoots: [path.join(repoRoot, "node_modules", "@types")],
  types: ["node"],
};
export const BROWSER_PROJECT = {
  target: "es2022",
  module: "esnext",
  moduleResolution: "bundler",
  lib: ["es2022", "dom"],
  types: [],
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  // TypeScript's own lib files (lib.dom.d.ts: about 40 % of this check) are not the packages'; a
  // declaration clashing with one of them is reported where the later one, the package's, stands.
  skipDefaultLibCheck: true,
};

/**
 * Type-checks `consumer` as tsc does with `options` (TypeScript 7, scripts/lib/native-tsc.ts, from
 * a tsconfig beside it): the files it read (relative to its project) and its errors in the files
 * `checked` keeps (with those of no file: options, a crash).
 */
export async function typeErrors(consumer: string, options: object, checked: (file: string) => boolean): Promise<{ files: string[]; errors: string }> {
  const project = path.dirname(consumer);
  const tsconfig = path.join(project, `tsconfig.${path.basename(consumer, ".ts")}.json`);
  fs.writeFileSync(tsconfig, JSON.stringify({ compilerOptions: options, files: [consumer] }));
  // --listFiles prints each file of the program as an absolute path, beside the errors.
  const lines = (await nativeTsc(["-p", tsconfig, "--listFiles"], project)).output.split("\n");
  const errors = [...errorsByFile(lines.filter((line) => !path.isAbsolute(line)).join("\n"))];
  return {
    files: lines.filter((line) => path.isAbsolute(line)).map((file) => path.relative(project, file)),
    errors: errors.filter(([file]) => file === "(no file)" || checked(path.resolve(project, file))).flatMap(([, list]) => list).join("\n"),
  };
}

type Writer = { write(text: string): unknown };
type Ran = { status: number; stdout: string; stderr: string };

/** Imports `file` (Node's own loader: it is under node_modules) and runs a command line of it with writers that collect what it prints. */
async function runInProcess<M>(file: string, call: (module: M, stdout: Writer, stderr: Writer) => Promise<number>): Promise<Ran> {
  const module = (await import(pathToFileURL(file).href)) as M;
  let stdout = "";
  let stderr = "";
  const status = await call(module, { write: (text: string) => (stdout += text) }, { write: (text: string) => (stderr += text) });
  return { status, stdout, stderr };
}

/** The installed hr-mock's command line (dist/mock/cli/main.js, whose run() bin/hr-mock.js runs), in this process. */
export function runInstalledCli(project: string, argv: string[]): Promise<Ran> {
  const file = path.join(project, "node_modules", "hr-service-mock", "dist", "mock", "cli", "main.js");
  return runInProcess<{ run: (argv: string[], stderr: (text: string) => void, stdout: Writer) => Promise<number> }>(file, ({ run }, stdout, stderr) => run(argv, (text) => void stderr.write(text), stdout));
}

/** The installed hr-contract's command line (dist/src/contract/cli.js, whose main() its bin runs), in this process. */
export function runInstalledContract(project: string, argv: string[]): Promise<Ran> {
  const file = path.join(project, "node_modules", "hr-service-contract", "dist", "src", "contract", "cli.js");
  return runInProcess<{ main: (argv: string[], env: NodeJS.ProcessEnv, io: { stdout: Writer; stderr: Writer }) => Promise<number> }>(file, ({ main }, stdout, stderr) => main(argv, process.env, { stdout, stderr }));
}

export function runNode(project: string, args: string[]) {
  return spawnSync(process.execPath, args, { cwd: project, encoding: "utf8", timeout: 120_000 });
}

/** runNode without blocking this process, for checks that run side by side. */
export function runNodeAside(project: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stdout, stderr }));
  });
}
