// The CI recipes of examples/ci/ as a CI system reads them: the one job's variables, its shell steps
// in order (a GitHub `run:` step each in a shell of its own; GitLab's `script:` lines in one shell),
// the files it keeps as artifacts and the JUnit files it shows as test results. Only what the
// recipes use is understood; anything else is an error naming it, so that a recipe cannot drift
// past what recipes.test.ts runs.
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { repoRoot } from "../../scripts/lib/spec-document.js";

export type CiSystem = "github" | "gitlab";

export interface RecipeStep {
  name: string;
  /** The shell text, as the CI system hands it to bash. */
  script: string;
  /** Runs after a failed step too (GitHub's `if: always()`). */
  always: boolean;
}

export interface Recipe {
  system: CiSystem;
  /** Relative to the repository. */
  file: string;
  /** The job's variables as written; values may hold the CI system's expressions (`${{ secrets.X }}`). */
  variables: Record<string, string>;
  /** The command that installs the project's packages (`npm ci`), taken out of `steps`. */
  install: string;
  steps: RecipeStep[];
  /** Files and folders the job keeps as artifacts, relative to the project. */
  kept: string[];
  /** JUnit files the job shows as test results. */
  junit: string[];
  /** Every action the workflow uses (`owner/name@ref`), GitHub only. */
  actions: string[];
}

export const RECIPES_DIR = path.join(repoRoot, "examples", "ci");
export const INSTALL_COMMAND = "npm ci";

/** Each recipe file under examples/ci/, by system (github-actions/, gitlab-ci/). */
export function recipeFiles(): Array<{ system: CiSystem; file: string }> {
  const under = (dir: string, system: CiSystem) =>
    fs
      .readdirSync(path.join(RECIPES_DIR, dir))
      .filter((name) => name.endsWith(".yml"))
      .sort()
      .map((name) => ({ system, file: path.relative(repoRoot, path.join(RECIPES_DIR, dir, name)) }));
  return [...under("github-actions", "github"), ...under("gitlab-ci", "gitlab")];
}

export function readRecipe(system: CiSystem, file: string): Recipe {
  const document = parse(fs.readFileSync(path.join(repoRoot, file), "utf8")) as Record<string, unknown>;
  return system === "github" ? githubRecipe(file, document) : gitlabRecipe(file, document);
}

type Yaml = Record<string, unknown>;

function onlyJob(file: string, jobs: Yaml): [string, Yaml] {
  const entries = Object.entries(jobs);
  if (entries.length !== 1) throw new Error(`${file}: ${entries.length} jobs (${entries.map(([name]) => name).join(", ")}); a recipe is one job`);
  return entries[0] as [string, Yaml];
}

function strings(file: string, where: string, value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries((value ?? {}) as Yaml)) {
    if (typeof v !== "string") throw new Error(`${file}: ${where}.${name} is not a string (quote it, as CI systems read variables as text)`);
    out[name] = v;
  }
  return out;
}

/** Takes the install command out of the steps: it must be one of them, as written. */
function withoutInstall(file: string, steps: RecipeStep[]): RecipeStep[] {
  const at = steps.findIndex((step) => step.script.trim() === INSTALL_COMMAND);
  if (at < 0) throw new Error(`${file}: no step installs the packages with "${INSTALL_COMMAND}"`);
  return steps.filter((_, index) => index !== at);
}

function githubRecipe(file: string, document: Yaml): Recipe {
  const [jobName, job] = onlyJob(file, document.jobs as Yaml);
  const steps: RecipeStep[] = [];
  const kept: string[] = [];
  const junit: string[] = [];
  const actions: string[] = [];
  for (const [index, step] of ((job.steps ?? []) as Yaml[]).entries()) {
    const name = String(step.name ?? step.uses ?? `step ${index + 1}`);
    const condition = step.if === undefined ? "" : String(step.if).trim();
    if (condition && condition !== "always()") throw new Error(`${file}: step "${name}" runs if ${condition}; the test knows only always()`);
    if (typeof step.run === "string") {
      if (step.shell !== undefined || step["working-directory"] !== undefined || step.env !== undefined) throw new Error(`${file}: step "${name}" sets shell, working-directory or env, which the test does not follow`);
      steps.push({ name, script: step.run, always: condition === "always()" });
      continue;
    }
    const uses = String(step.uses);
    actions.push(uses);
    const paths = String((step.with as Yaml | undefined)?.path ?? "")
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    if (uses.startsWith("actions/upload-artifact@")) kept.push(...paths);
    if (uses.startsWith("dorny/test-reporter@")) junit.push(...paths);
  }
  const variables = { ...strings(file, "env", document.env), ...strings(file, `jobs.${jobName}.env`, job.env) };
  return { system: "github", file, variables, install: INSTALL_COMMAND, steps: withoutInstall(file, steps), kept, junit, actions };
}

/** The top-level keys of a .gitlab-ci.yml that are not jobs. */
const GITLAB_GLOBALS = new Set(["stages", "variables", "default", "workflow", "include", "image", "services", "cache", "before_script", "after_script"]);

function gitlabRecipe(file: string, document: Yaml): Recipe {
  const jobs = Object.fromEntries(Object.entries(document).filter(([name]) => !GITLAB_GLOBALS.has(name) && !name.startsWith(".")));
  const [jobName, job] = onlyJob(file, jobs);
  for (const key of ["before_script", "after_script"]) if (job[key] !== undefined || document[key] !== undefined) throw new Error(`${file}: ${key} is not followed by the test; put its lines in script`);
  const lines = (job.script ?? []) as unknown[];
  if (!lines.every((line) => typeof line === "string")) throw new Error(`${file}: ${jobName}.script holds a line that is not a string`);
  const script = lines as string[];
  if (script[0]?.trim() !== INSTALL_COMMAND) throw new Error(`${file}: ${jobName}.script does not start with "${INSTALL_COMMAND}", which installs the packages`);
  const artifacts = (job.artifacts ?? {}) as Yaml;
  const reports = (artifacts.reports ?? {}) as Yaml;
  const listed = (value: unknown) => (value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]);
  const junit = listed(reports.junit);
  return {
    system: "gitlab",
    file,
    variables: { ...strings(file, "variables", document.variables), ...strings(file, `${jobName}.variables`, job.variables) },
    install: INSTALL_COMMAND,
    // GitLab runs the script's lines in one shell, each stopping the job when it fails.
    steps: [{ name: `${jobName}.script`, script: script.slice(1).join("\n"), always: false }],
    kept: [...listed(artifacts.paths), ...junit],
    junit,
    actions: [],
  };
}
