// Runs a recipe's shell steps as its CI system would, in a project of the test's: the job's
// variables in a clean environment, each GitHub step in a `bash -eo pipefail` of its own and
// GitLab's script in one, a step after a failure only when it runs always, a folder a GitHub step
// adds to $GITHUB_PATH on the PATH of the steps after it. The CI system's
// expressions (`${{ vars.X }}`, `${{ secrets.X }}`) and GitLab's project variables take the values
// the caller stands in for them; an expression without one is an error naming it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { stopAtEnd } from "../support/run-once.js";
import type { Recipe } from "./recipes.js";

export interface StepResult {
  name: string;
  /** The shell text it ran. */
  script: string;
  /** The exit status; null when skipped after an earlier failure. */
  status: number | null;
  output: string;
  /** How long it ran, in milliseconds. */
  ms: number;
}

export interface RunSettings {
  /** The project the steps run in (its packages already installed). */
  project: string;
  /** Values of the CI system's expressions, by expression (`secrets.HR_CONTRACT_API_KEY`). */
  expressions?: Record<string, string>;
  /** Variables the CI system's project settings give the job (GitLab's CI/CD variables); they win over the file's. */
  projectVariables?: Record<string, string>;
  /** Variables the test gives a value of its own (a free port), each of which the recipe must set. */
  overrides?: Record<string, string>;
}

const STEP_TIMEOUT_MS = 120_000;

/** `${{ expr }}` replaced by its stand-in value. */
function expand(recipe: Recipe, text: string, expressions: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    if (!(expression in expressions)) throw new Error(`${recipe.file}: the test has no stand-in value for \${{ ${expression} }}`);
    return expressions[expression];
  });
}

/** The job's environment: the runner's PATH and HOME, CI=true, then the recipe's variables. */
export function jobEnvironment(recipe: Recipe, settings: RunSettings): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(recipe.variables)) variables[name] = expand(recipe, value, settings.expressions ?? {});
  for (const name of Object.keys(settings.overrides ?? {})) if (!(name in variables)) throw new Error(`${recipe.file}: sets no ${name}, which the test gives a value of its own`);
  return {
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
    HOME: process.env.HOME ?? "/root",
    CI: "true",
    NO_COLOR: "1",
    ...variables,
    ...settings.projectVariables,
    ...settings.overrides,
  };
}

/** One step's script in bash, in its own process group (listed to be stopped when the run ends). */
function runStep(script: string, cwd: string, env: Record<string, string>): Promise<{ status: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    if (child.pid) stopAtEnd(child.pid);
    let output = "";
    const collect = (chunk: string) => (output += chunk);
    child.stdout.setEncoding("utf8").on("data", collect);
    child.stderr.setEncoding("utf8").on("data", collect);
    const timer = setTimeout(() => {
      output += `\n(the test stopped this step after ${STEP_TIMEOUT_MS / 1000} s)`;
      process.kill(-child.pid!, "SIGKILL");
    }, STEP_TIMEOUT_MS);
    child.once("error", reject);
    child.once("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status: status ?? (signal ? 128 : 1), output });
    });
  });
}

/** Runs every step in order; a step after a failed one runs only if it runs always. */
export async function runRecipe(recipe: Recipe, settings: RunSettings): Promise<StepResult[]> {
  const env = jobEnvironment(recipe, settings);
  // GitHub's runner gives each step the file GITHUB_PATH; the folders written there lead PATH from the next step on.
  const githubPath = path.join(path.dirname(settings.project), `${path.basename(settings.project)}.github-path`);
  if (recipe.system === "github") fs.writeFileSync((env.GITHUB_PATH = githubPath), "");
  const basePath = env.PATH;
  const results: StepResult[] = [];
  let failed = false;
  for (const step of recipe.steps) {
    const script = expand(recipe, step.script, settings.expressions ?? {});
    if (failed && !step.always) {
      results.push({ name: step.name, script, status: null, output: "", ms: 0 });
      continue;
    }
    const began = performance.now();
    const { status, output } = await runStep(script, settings.project, env);
    results.push({ name: step.name, script, status, output, ms: Math.round(performance.now() - began) });
    if (recipe.system === "github") env.PATH = [...fs.readFileSync(githubPath, "utf8").split("\n").filter(Boolean).reverse(), basePath].join(path.delimiter);
    failed ||= status !== 0;
  }
  return results;
}

/** The steps as a reader of the job's log sees them: each name, its status and its output. */
export function jobLog(results: readonly StepResult[]): string {
  return results.map((r) => `--- ${r.name}: ${r.status === null ? "skipped" : `exit ${r.status}, ${r.ms} ms`}\n${r.output.trimEnd()}`).join("\n");
}
