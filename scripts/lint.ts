// npm run lint: Redocly lint of the documents (recommended rules plus the house rules in
// redocly.yaml), the AsyncAPI parser's validation, and Spectral (spectral:oas, spectral:asyncapi and
// the OWASP ruleset, see scripts/lint/rulesets.ts) over the bundles; fails on any error or warning
// (and on Spectral's infos). No telemetry.
import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import { DiagnosticSeverity, Parser } from "@asyncapi/parser";
import path from "node:path";
import { repoRoot } from "./generate/bundle.js";
import { countByRule, describeFindings, SPECTRAL_TARGETS, spectralFindings } from "./lint/spectral.js";
import type { RulesetName } from "./lint/rulesets.js";

const quietEnv = {
  ...process.env,
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
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

/**
 * What `asyncapi validate` runs, without the CLI: the AsyncAPI parser with its default rulesets
 * (the specification's JSON Schema, then the core and recommended Spectral rules). Fails on any
 * error or warning, as `asyncapi validate --fail-severity=warn` did.
 */
export async function asyncapiValidate(file = "asyncapi/asyncapi.yaml"): Promise<LintResult> {
  const source = path.resolve(repoRoot, file);
  const tool = `@asyncapi/parser validate ${path.relative(repoRoot, source)}`;
  let text: string;
  try {
    text = await fs.readFile(source, "utf8");
  } catch (error) {
    return { tool, ok: false, errors: 1, warnings: 0, output: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code}` };
  }
  // The parser resolves relative $refs against the document's own location.
  const diagnostics = await new Parser().validate(text, { source });
  const shown = diagnostics.filter((d) => d.severity <= DiagnosticSeverity.Warning);
  const errors = shown.filter((d) => d.severity === DiagnosticSeverity.Error).length;
  const output = shown
    .map((d) => `${d.severity === DiagnosticSeverity.Error ? "error" : "warning"} ${d.code}: ${d.message} (${d.source ? path.relative(repoRoot, d.source) : file}#/${d.path.join("/")})`)
    .join("\n");
  return { tool, ok: shown.length === 0, errors, warnings: shown.length - errors, output };
}

/** Spectral with one of the rulesets of scripts/lint/rulesets.ts on a bundled document; fails on anything above hint. */
export async function spectralLint(file: string, ruleset: RulesetName): Promise<LintResult> {
  const tool = `spectral (${ruleset}) ${path.relative(repoRoot, path.resolve(repoRoot, file))}`;
  let findings;
  try {
    findings = await spectralFindings(path.resolve(repoRoot, file), ruleset);
  } catch (error) {
    return { tool, ok: false, errors: 1, warnings: 0, output: `spectral could not lint ${file}: ${error instanceof Error ? error.message : String(error)}` };
  }
  const errors = findings.filter((f) => f.severity === "error").length;
  const byRule = Object.entries(countByRule(findings)).map(([rule, n]) => `${rule}: ${n}`).join(", ");
  return { tool, ok: findings.length === 0, errors, warnings: findings.length - errors, output: findings.length ? `${describeFindings(findings)}\nby rule: ${byRule}` : "" };
}

async function main() {
  const results = [redoclyLint("hr-api"), redoclyLint("hr-events"), redoclyLint("mock-control"), await asyncapiValidate()];
  for (const { file, ruleset } of SPECTRAL_TARGETS) results.push(await spectralLint(file, ruleset));
  for (const r of results) {
    console.log(`lint: ${r.tool}: ${r.ok ? "clean" : "FAILED"} (${r.errors} errors, ${r.warnings} warnings)`);
    if (!r.ok && r.output) console.log(r.output);
  }
  if (results.some((r) => !r.ok)) process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
