// Spectral, through its library API, over the bundled documents: the `spectral:oas` and OWASP rulesets
// on the read API, `spectral:oas` on the mock's control API, `spectral:asyncapi` on the events.
// The rulesets, with every rule switched off and why, are in rulesets.ts.
import fs from "node:fs/promises";
import spectralCore from "@stoplight/spectral-core";
import spectralParsers from "@stoplight/spectral-parsers";
import { RULESETS, type RulesetName } from "./rulesets.js";

// Both are CommonJS packages; their named exports reach ESM through the default export.
const { Spectral, Document } = spectralCore;
const { Json } = spectralParsers;

const SEVERITY = ["error", "warning", "info", "hint"] as const;

export interface SpectralFinding {
  severity: (typeof SEVERITY)[number];
  code: string;
  message: string;
  path: string;
}

/** Every finding above hint (errors, warnings and infos) of one ruleset on one JSON document. */
export async function spectralFindings(file: string, ruleset: RulesetName): Promise<SpectralFinding[]> {
  const text = await fs.readFile(file, "utf8");
  const spectral = new Spectral();
  spectral.setRuleset(RULESETS[ruleset]);
  const diagnostics = await spectral.run(new Document(text, Json, file));
  return diagnostics
    .filter((d) => d.severity < 3)
    .map((d) => ({ severity: SEVERITY[d.severity], code: String(d.code), message: d.message, path: `#/${d.path.join("/")}` }));
}

/** The documents Spectral lints, each with its ruleset (bundles: Spectral reads one file without the split's relative $refs). */
export const SPECTRAL_TARGETS: Array<{ file: string; ruleset: RulesetName }> = [
  { file: "generated/openapi.json", ruleset: "read-api" },
  { file: "generated/openapi.failure-200.json", ruleset: "read-api" },
  { file: "generated/control-openapi.json", ruleset: "control-api" },
  { file: "generated/asyncapi.json", ruleset: "events" },
];

export function describeFindings(findings: SpectralFinding[]): string {
  return findings.map((f) => `${f.severity} ${f.code}: ${f.message} (${f.path})`).join("\n");
}

export function countByRule(findings: SpectralFinding[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const f of findings) counts[f.code] = (counts[f.code] ?? 0) + 1;
  return counts;
}

