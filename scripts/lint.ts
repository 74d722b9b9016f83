// npm run lint: Redocly lint of both documents (recommended rules plus the house rules in
// redocly.yaml) and `asyncapi validate`; fails on any error or warning. No telemetry, no prompts.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { repoRoot } from "./generate/bundle.js";

const quietEnv = {
  ...process.env,
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  CI: "true",
  ASYNCAPI_SKIP_NEW_VERSION_CHECK: "true",
  NO_COLOR: "1",
};
const bin = (name: string) => path.join(repoRoot, "node_modules", ".bin", name);

export interface LintResult {
  tool: string;
  ok: boolean;
  errors: number;
  warnings: number;
  output: string;
}

export function redoclyLint(api: string): LintResult {
  const run = spawnSync(bin("redocly"), ["lint", api, "--format=json"], { cwd: repoRoot, env: quietEnv, encoding: "utf8" });
  const json = run.stdout.slice(run.stdout.indexOf("{"));
  let totals = { errors: -1, warnings: -1 };
  let problems: any[] = [];
  try {
    const parsed = JSON.parse(json);
    totals = parsed.totals;
    problems = parsed.problems ?? [];
  } catch {
    return { tool: `redocly lint ${api}`, ok: false, errors: 1, warnings: 0, output: run.stdout + run.stderr };
  }
  const output = problems
    .map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location?.[0]?.source?.ref ?? ""}${p.location?.[0]?.pointer ?? ""})`)
    .join("\n");
  return { tool: `redocly lint ${api}`, ok: totals.errors === 0 && totals.warnings === 0, ...totals, output };
}

export function asyncapiValidate(): LintResult {
  const run = spawnSync(
    bin("asyncapi"),
    ["validate", "asyncapi/asyncapi.yaml", "--fail-severity=warn", "--diagnostics-format=text"],
    { cwd: repoRoot, env: quietEnv, encoding: "utf8" },
  );
  const output = (run.stdout + run.stderr).trim();
  const warnings = (output.match(/\bwarn(ing)?\b/gi) ?? []).length;
  const errors = (output.match(/\berror\b/gi) ?? []).length;
  return { tool: "asyncapi validate", ok: run.status === 0, errors: run.status === 0 ? 0 : Math.max(errors, 1), warnings, output };
}

function main() {
  const results = [redoclyLint("hr-api"), redoclyLint("hr-events"), redoclyLint("mock-control"), asyncapiValidate()];
  for (const r of results) {
    console.log(`lint: ${r.tool}: ${r.ok ? "clean" : "FAILED"} (${r.errors} errors, ${r.warnings} warnings)`);
    if (!r.ok && r.output) console.log(r.output);
  }
  if (results.some((r) => !r.ok)) process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
