// The CI recipes of examples/ci/ (issue 50) are jobs a team copies as they are, so they are checked
// as their CI systems would take them and then run:
// - the GitHub workflows pass @action-validator/cli (GitHub's workflow schema) and name every action
//   at a pinned version; the GitLab jobs are valid against GitLab's CI schema (a pinned copy with its
//   licence, test/fixtures/gitlab-ci-schema/) and name their image at a version;
// - each recipe's shell steps run in order (run-recipe.ts) in a project holding the packed packages
//   (the run's packed install, test/support/packed-install.ts, stands in for the recipe's `npm ci`):
//   * tests against the mock: the stand-in for the team's tests (team-tests/, the typed client at
//     HR_MOCK_URL) passes, the mock answered ready, the coverage report and the pact it keeps
//     parse and hold the team's requests, and its SIGTERM drain stopped it; run again with a team
//     test that fails, the job fails at that step and still keeps the reports and stops the mock;
//   * the contract check: hr-contract against a stand-in deployment (a mock started here) with a
//     stand-in secret key, its JUnit and coverage kept and parsed, the key in no output or file;
// - the CI guide includes each recipe file, which the docs build shows on its page as it is.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Validator } from "@cfworker/json-schema";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startMock, type RunningMock } from "../../mock/index.js";
import { DEFAULT_RATE } from "../../src/contract/options.js";
import { freePort } from "../../scripts/lib/free-port.js";
import { includeFiles } from "../../scripts/docs/guides.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { builtDocsSite } from "../support/docs-site.js";
import { installedPackages, type InstalledPackages } from "../support/packed-install.js";
import { runFolder } from "../support/run-once.js";
import { readRecipe, recipeFiles, type Recipe } from "./recipes.js";
import { jobLog, runRecipe, type StepResult } from "./run-recipe.js";

const recipes = recipeFiles().map(({ system, file }) => readRecipe(system, file));
const isContractCheck = (recipe: Recipe) => path.basename(recipe.file).startsWith("contract-check");
const named = (list: Recipe[]) => list.map((recipe) => [recipe.file, recipe] as [string, Recipe]);

const GITLAB_SCHEMA = path.join(repoRoot, "test", "fixtures", "gitlab-ci-schema", "ci.json");
/** The stand-in for the deployment's key, kept in the CI system's secrets. */
const SECRET_KEY = `ci_recipe_secret_${process.pid}_${Date.now().toString(36)}`;
/** What the mock recipes name their pid and log files. */
const MOCK_PID = "hr-mock.pid";
const MOCK_LOG = "hr-mock.log";
/** The key of a mock recipe's second run, whose team tests include one that fails. */
const FAILING = " (a team test failing)";

describe("the recipes, as their CI systems read them", () => {
  /** GitLab's schema, read once; @cfworker/json-schema (the light package's validator) interprets it without Ajv's seconds of compiling. */
  let gitlab: Validator | undefined;

  it("are four: tests against the mock and a contract check, for GitHub Actions and GitLab CI", () => {
    expect(recipes.map((recipe) => `${recipe.system} ${isContractCheck(recipe) ? "contract check" : "tests against the mock"}`).sort()).toEqual([
      "github contract check",
      "github tests against the mock",
      "gitlab contract check",
      "gitlab tests against the mock",
    ]);
  });

  it.each(named(recipes.filter((r) => r.system === "github")))("%s passes @action-validator/cli (GitHub's workflow schema)", (file) => {
    const result = spawnSync(process.execPath, [path.join(repoRoot, "node_modules", "@action-validator", "cli", "cli.mjs"), path.join(repoRoot, file)], { encoding: "utf8", timeout: 60_000 });
    expect(result.status, `action-validator refused ${file}: ${result.stdout}${result.stderr}`).toBe(0);
  });

  it.each(named(recipes.filter((r) => r.system === "github")))("%s names every action at a pinned version", (_file, recipe) => {
    expect(recipe.actions.length, "actions the workflow uses").toBeGreaterThan(0);
    expect(recipe.actions.filter((uses) => !/^[\w.-]+\/[\w.-]+@(v\d+\.\d+\.\d+|[0-9a-f]{40})$/.test(uses)), "actions not pinned to vX.Y.Z or a commit").toEqual([]);
  });

  it.each(named(recipes.filter(isContractCheck)))("%s paces hr-contract at hr-contract's own default rate (DEFAULT_RATE, src/contract/options.ts)", (_file, recipe) => {
    expect(recipe.variables.HR_CONTRACT_RATE, "HR_CONTRACT_RATE against hr-contract's DEFAULT_RATE").toBe(String(DEFAULT_RATE));
  });

  it.each(named(recipes.filter((r) => r.system === "gitlab")))("%s is valid against GitLab's CI schema and names its image at a version", (file) => {
    gitlab ??= new Validator(JSON.parse(fs.readFileSync(GITLAB_SCHEMA, "utf8")), "7", false);
    const document = parse(fs.readFileSync(path.join(repoRoot, file), "utf8")) as Record<string, { image?: string }>;
    expect(gitlab.validate(document).errors.map((error) => `${error.instanceLocation}: ${error.error}`), `${file} against GitLab's CI schema`).toEqual([]);
    const images = Object.values(document).flatMap((job) => (job && typeof job === "object" && typeof job.image === "string" ? [job.image] : []));
    expect(images.length, "jobs naming an image").toBeGreaterThan(0);
    expect(images.filter((image) => !/:\d/.test(image)), "images without a version").toEqual([]);
  });
});

describe("the recipes in the CI guide", () => {
  const GUIDE = "docs/guides/checking-a-deployment-in-ci.md";

  it.each([
    ["a YAML file becomes a yaml block of its text", { given: "a\n<!-- include: examples/ci/gitlab-ci/contract-check.gitlab-ci.yml -->\nb", want: /^a\n```yaml\n# The contract suite[\s\S]*\n```\nb$/ }],
    ["a file holding a fence gets a longer one", { given: "<!-- include: docs/guides/checking-a-deployment-in-ci.md -->", want: /^````\n# Checking a deployment in CI[\s\S]*\n````$/ }],
    ["a marker inside a line is text", { given: "see <!-- include: nothing -->", want: /^see <!-- include: nothing -->$/ }],
  ] as const)("includeFiles: %s", async (_name, { given, want }) => {
    expect(await includeFiles(given, GUIDE, repoRoot)).toMatch(want);
  });

  it("includeFiles refuses a file the repository does not have, naming the guide and the line", async () => {
    await expect(includeFiles("<!-- include: examples/ci/none.yml -->", GUIDE, repoRoot)).rejects.toThrow(`${GUIDE}: <!-- include: examples/ci/none.yml --> names no file of the repository`);
  });

  it("includes each recipe by its file, which the docs build shows as the page's code, not a copy", async () => {
    const guide = fs.readFileSync(path.join(repoRoot, GUIDE), "utf8");
    expect([...guide.matchAll(/^<!-- include: (\S+) -->$/gm)].map((m) => m[1]).sort(), `${GUIDE}'s include lines`).toEqual(recipes.map((recipe) => recipe.file).sort());
    const page = fs.readFileSync(path.join((await builtDocsSite()).dir, "checking-a-deployment-in-ci.html"), "utf8");
    const unescape = (html: string) => html.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
    const blocks = [...page.matchAll(/<pre><code class="language-yaml">([\s\S]*?)<\/code><\/pre>/g)].map((m) => unescape(m[1]).trimEnd());
    for (const recipe of recipes) expect(blocks, `the site's page shows ${recipe.file} as it is`).toContain(fs.readFileSync(path.join(repoRoot, recipe.file), "utf8").trimEnd());
  }, 300_000);
});

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules") return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** Every file a kept path names (a folder: the files in it), each required to exist. */
function keptFiles(project: string, recipe: Recipe): string[] {
  return recipe.kept.flatMap((kept) => {
    const full = path.join(project, kept);
    expect(fs.existsSync(full), `${recipe.file} keeps ${kept}, which the job did not write`).toBe(true);
    return fs.statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

function parsedJUnit(file: string): { tests: number; failures: number } {
  expect(fs.existsSync(file), `${file}, which the recipe shows as test results, was not written`).toBe(true);
  const xml = fs.readFileSync(file, "utf8");
  expect(XMLValidator.validate(xml), `${file} is not well-formed XML`).toBe(true);
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml) as { testsuites?: { tests: string; failures: string } };
  expect(parsed.testsuites, `${file} has no <testsuites>`).toBeDefined();
  return { tests: Number(parsed.testsuites!.tests), failures: Number(parsed.testsuites!.failures) };
}

let installed: InstalledPackages;
let deployment: RunningMock;

/** Each recipe's project and its steps' results, by file. */
const jobs = new Map<string, { project: string; results: StepResult[]; log: string }>();

/** The jobs (started with the file, so that the checks above, which need none, run while they do). */
async function runJobs(): Promise<void> {
  installed = await installedPackages();
  // The stand-in deployment: a mock whose one extra key is the stand-in secret.
  deployment = await startMock({ port: 0, keys: [{ key: SECRET_KEY, organisation: 1, permissions: ["Leave: View", "Employee Management: View"], label: "CI secret stand-in" }] });
  // The jobs side by side, as CI runs them: each waits on its processes most of its time.
  await Promise.all([
    ...recipes.map(async (recipe) => jobs.set(recipe.file, await runJob(recipe))),
    ...recipes.filter((recipe) => !isContractCheck(recipe)).map(async (recipe) => jobs.set(`${recipe.file}${FAILING}`, await runJob(recipe, true))),
  ]);
}

let jobsRan: Promise<void> | undefined;
beforeAll(() => {
  jobsRan = runJobs();
  // Its failure is reported by the tests that await it.
  jobsRan.catch(() => {});
});

async function runJob(recipe: Recipe, failingTests = false): Promise<{ project: string; results: StepResult[]; log: string }> {
  if (isContractCheck(recipe)) {
    const project = teamProject(recipe, installed.light, ["hr-service-contract"]);
    const settings =
      recipe.system === "github"
        ? { expressions: { "vars.HR_BASE_URL": deployment.url, "secrets.HR_CONTRACT_API_KEY": SECRET_KEY } }
        : { projectVariables: { HR_BASE_URL: deployment.url, CONTRACT_API_KEY: SECRET_KEY } };
    // The stand-in deployment is this machine's: the default pacing (DEFAULT_RATE, ~25 s) would only cost time.
    const results = await runRecipe(recipe, { project, ...settings, overrides: { HR_CONTRACT_RATE: "50" } });
    return { project, results, log: jobLog(results) };
  }
  const project = teamProject(recipe, installed.app, ["hr-service-contract", "hr-service-mock"], failingTests);
  const port = await freePort();
  const results = await runRecipe(recipe, { project, overrides: { HR_MOCK_PORT: String(port), HR_MOCK_URL: `http://127.0.0.1:${port}` } });
  return { project, results, log: jobLog(results) };
}

// A mock a job left running is in its step's process group, which the run stops at its end (run-recipe.ts).
afterAll(async () => {
  await jobsRan?.catch(() => {});
  await deployment?.close();
});

/** A team's project: the packed install (what `npm ci` makes of a package.json naming the tarballs) and its own tests. */
function teamProject(recipe: Recipe, from: string, packages: string[], failingTests = false): string {
  const project = runFolder(`ci-recipes/${recipe.file.replace(/[/.]/g, "-")}${failingTests ? "-failing" : ""}`);
  fs.rmSync(project, { recursive: true, force: true });
  fs.cpSync(path.join(from, "node_modules"), path.join(project, "node_modules"), { recursive: true, verbatimSymlinks: true });
  const tarballs = installed.tarballs;
  const devDependencies = Object.fromEntries(packages.map((name) => [name, `file:${name === "hr-service-mock" ? tarballs.mock.file : tarballs.contract.file}`]));
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "team-app", private: true, type: "module", scripts: { test: "node --test" }, devDependencies }, null, 2));
  fs.cpSync(path.join(repoRoot, "test", "ci-recipes", "team-tests"), path.join(project, "test"), { recursive: true });
  if (failingTests) fs.writeFileSync(path.join(project, "test", "failing.test.mjs"), 'import { test } from "node:test";\ntest("a test of the team that fails", () => {\n  throw new Error("the leave screen broke");\n});\n');
  return project;
}

describe("the recipes, run in a project with the packed packages", () => {
  beforeAll(() => jobsRan, 400_000);

  it.each(named(recipes.filter((r) => !isContractCheck(r))))(
    "%s: the team's tests pass against the mock it started and waited for; coverage and the pact are kept; the drain stops it",
    (file, recipe) => {
      const { project, results, log } = jobs.get(file)!;
      const pidFile = path.join(project, MOCK_PID);
      expect(results.filter((r) => r.status !== 0).map((r) => r.name), `steps that failed or were skipped:\n${log}`).toEqual([]);
      expect(log, "GET /_mock/ready's answer, which the job waited for").toContain('"ready":true');
      expect(log, "the stand-in team tests' results").toMatch(/^# pass 2$/m);

      const files = keptFiles(project, recipe);
      const coverage = files.filter((file) => file.endsWith(".json") && !file.includes(`${path.sep}pacts${path.sep}`));
      expect(coverage.length, `coverage reports kept by ${recipe.file}`).toBe(1);
      const report = JSON.parse(fs.readFileSync(coverage[0], "utf8")) as { api: { operations: Array<{ operationId: string; requests: number }> } };
      const requests = Object.fromEntries(report.api.operations.map((op) => [op.operationId, op.requests]));
      expect(requests.listLeaveRequests, "the team tests' leave list requests in the coverage report").toBeGreaterThanOrEqual(2);
      expect(requests.listDepartments, "the team tests' department requests in the coverage report").toBeGreaterThanOrEqual(1);

      const pacts = files.filter((file) => file.includes(`${path.sep}pacts${path.sep}`));
      expect(pacts.length, `pact files kept by ${recipe.file}`).toBe(1);
      const pact = JSON.parse(fs.readFileSync(pacts[0], "utf8")) as { consumer: { name: string }; interactions: Array<{ description: string }>; metadata: { pactSpecification: { version: string } } };
      expect(pact.metadata.pactSpecification.version).toBe("4.0");
      expect(pact.consumer.name, "the pact's consumer, the recipe's PACT_CONSUMER").toBe(recipe.variables.PACT_CONSUMER);
      expect(pact.interactions.length, "interactions of the team's requests").toBeGreaterThanOrEqual(2);

      const pid = Number(fs.readFileSync(pidFile, "utf8"));
      expect(() => process.kill(pid, 0), `the mock (pid ${pid}) still runs after the job`).toThrow();
      expect(fs.readFileSync(path.join(project, MOCK_LOG), "utf8"), "the mock's log: its drain ran to the end").toMatch(/hr-mock: SIGTERM, stopping…[\s\S]*hr-mock: stopped\./);
    },
  );

  it.each(named(recipes.filter((r) => !isContractCheck(r))))(
    "%s: when a team test fails, the job fails with it, and still keeps coverage and the pact and stops the mock",
    (file, recipe) => {
      const { project, results, log } = jobs.get(`${file}${FAILING}`)!;
      expect(log, "the team tests' results").toMatch(/^# fail 1$/m);
      const failed = results.filter((r) => r.status !== 0 && r.status !== null);
      expect(failed.length, `the job's failure (its log:\n${log})`).toBe(1);
      expect(failed[0].script, "the step that fails is the one running the team's tests").toMatch(/^(.*\n)*npm test\b/);
      expect(results.filter((r) => r.status === null).map((r) => r.name), "steps skipped after the failure").toEqual([]);
      expect(keptFiles(project, recipe).length, "files kept").toBeGreaterThanOrEqual(2);
      const pid = Number(fs.readFileSync(path.join(project, MOCK_PID), "utf8"));
      expect(() => process.kill(pid, 0), `the mock (pid ${pid}) still runs after the job`).toThrow();
    },
  );

  it.each(named(recipes.filter(isContractCheck)))(
    "%s: hr-contract checks the deployment with the secret key, its JUnit shown and its reports kept, the key in no output or file",
    (file, recipe) => {
      const { project, results, log } = jobs.get(file)!;
      expect(results.filter((r) => r.status !== 0).map((r) => r.name), `steps that failed or were skipped:\n${log}`).toEqual([]);

      expect(recipe.junit.length, `JUnit files ${recipe.file} shows as test results`).toBeGreaterThan(0);
      for (const junit of recipe.junit) {
        const { tests, failures } = parsedJUnit(path.join(project, junit));
        expect(tests, `test cases in ${junit}`).toBeGreaterThan(10);
        expect(failures, `failures in ${junit}`).toBe(0);
      }
      const files = keptFiles(project, recipe);
      const coverage = files.filter((file) => file.endsWith(".json"));
      expect(coverage.length, `coverage reports kept by ${recipe.file}`).toBe(1);
      expect((JSON.parse(fs.readFileSync(coverage[0], "utf8")) as { tool: string; api: { requests: number } }).api.requests, "the suite's requests in its coverage report").toBeGreaterThan(10);

      expect(log.includes(SECRET_KEY), `the job's log shows the key:\n${log}`).toBe(false);
      const showing = filesUnder(project).filter((file) => fs.readFileSync(file, "utf8").includes(SECRET_KEY));
      expect(showing.map((file) => path.relative(project, file)), "files the job wrote that hold the key").toEqual([]);
    },
  );
});
