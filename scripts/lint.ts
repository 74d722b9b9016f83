// npm run lint: Redocly lint of the documents (recommended rules plus the house rules in
// redocly.yaml), the AsyncAPI parser's validation, and Spectral (spectral:oas, spectral:asyncapi and
// the OWASP ruleset, see scripts/lint/rulesets.ts) over the bundles; fails on any error or warning
// (and on Spectral's infos). No telemetry.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import { DiagnosticSeverity, Parser } from "@asyncapi/parser";
import path from "node:path";
import { parse } from "yaml";
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

/** The APIs redocly.yaml names, each linted by `redocly lint`. */
export const REDOCLY_APIS = Object.keys(parse(readFileSync(path.join(repoRoot, "redocly.yaml"), "utf8")).apis);

export interface LintResult {
  tool: string;
  ok: boolean;
  errors: number;
  warnings: number;
  output: string;
}

/**
 * `redocly lint` of each API (a name from redocly.yaml, or a file's path), all in one process: its
 * start-up costs more than a document's lint. With --format=json it prints one JSON document per
 * API, in the order given. A child process: the in-process checks run while it lints.
 */
export async function redoclyLint(apis: string[]): Promise<LintResult[]> {
  // It exits non-zero when it finds problems; its report says which.
  const run = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
    execFile(bin("redocly"), ["lint", ...apis, "--format=json"], { cwd: repoRoot, env: quietEnv, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ stdout, stderr: stderr || (error && !stdout ? String(error.message) : "") }),
    ),
  );
  let reports: any[] = [];
  try {
    reports = jsonDocuments(run.stdout);
  } catch {
    // Unreadable output: every API fails with all that redocly printed.
  }
  return apis.map((api, i) => {
    const tool = `redocly lint ${api}`;
    const report = reports.length === apis.length ? reports[i] : undefined;
    if (!report?.totals) return { tool, ok: false, errors: 1, warnings: 0, output: run.stdout + run.stderr };
    const output = (report.problems ?? [])
      .map((p: any) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location?.[0]?.source?.ref ?? ""}${p.location?.[0]?.pointer ?? ""})`)
      .join("\n");
    const { errors, warnings } = report.totals as { errors: number; warnings: number };
    return { tool, ok: errors === 0 && warnings === 0, errors, warnings, output };
  });
}

/** The JSON documents written one after another in `text` (`{…}{…}`), parsed; text between them is skipped. */
export function jsonDocuments(text: string): unknown[] {
  const documents: unknown[] = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"' && depth > 0) inString = true;
    else if (c === "{" && depth++ === 0) start = i;
    else if (c === "}" && depth > 0 && --depth === 0) documents.push(JSON.parse(text.slice(start, i + 1)));
  }
  return documents;
}

/** One parser for every validation: a new one compiles the specification's JSON Schema again. */
let parser: Parser | undefined;
const asyncapiParser = () => (parser ??= new Parser());

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
  const diagnostics = await asyncapiParser().validate(text, { source });
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
  const redocly = redoclyLint(REDOCLY_APIS);
  const results = [await asyncapiValidate()];
  for (const { file, ruleset } of SPECTRAL_TARGETS) results.push(await spectralLint(file, ruleset));
  results.unshift(...(await redocly));
  for (const r of results) {
    console.log(`lint: ${r.tool}: ${r.ok ? "clean" : "FAILED"} (${r.errors} errors, ${r.warnings} warnings)`);
    if (!r.ok && r.output) console.log(r.output);
  }
  if (results.some((r) => !r.ok)) process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
