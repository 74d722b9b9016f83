// Runs a Node tool of node_modules in a child process and collects its output, so a failure can be
// reported in one line with the tool's own last words.
import { spawn } from "node:child_process";

export interface ToolRun {
  stdout: string;
  stderr: string;
}

export function runNode(args: string[], { cwd, env }: { cwd: string; env: NodeJS.ProcessEnv }): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) return resolve({ stdout, stderr });
      const last = lastLines(stderr || stdout, 1);
      reject(new Error(`exited with ${signal ?? `code ${code}`}${last ? `: ${last}` : ""}`));
    });
  });
}

/** The last non-empty lines of a tool's output, joined into one line. */
export function lastLines(text: string, count: number): string {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .slice(-count)
    .join(" | ");
}
