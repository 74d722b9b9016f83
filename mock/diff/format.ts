// The report: one line per change (kind, id, reason), the assumption changes apart, the gate's
// verdict last. Pure functions returning text.
import type { GateResult } from "./acknowledgements.js";
import type { AssumptionChange, Change, ContractDiff } from "./contract.js";

const LABEL = { breaking: "BREAKING", "non-breaking": "non-breaking", info: "info" } as const;

const changeLine = (change: Change): string => `${LABEL[change.kind].padEnd(12)}  ${change.id} — ${change.why}`;

function assumptionLine(change: AssumptionChange): string {
  const where = `${change.document} ${change.where}`;
  if (change.change === "added") return `added     ${where}: "${change.after}"`;
  if (change.change === "removed") return `removed   ${where}: "${change.before}"`;
  return `reworded  ${where}: "${change.before}" → "${change.after}"`;
}

export function counts(changes: Change[]): Record<Change["kind"], number> {
  const tally = { breaking: 0, "non-breaking": 0, info: 0 };
  for (const change of changes) tally[change.kind] += 1;
  return tally;
}

export function formatText(diff: ContractDiff, gate: GateResult): string {
  const tally = counts(diff.changes);
  const lines = [
    `contract diff: ${diff.base} → ${diff.head}`,
    `${tally.breaking} breaking (${gate.acknowledged.length} acknowledged), ${tally["non-breaking"]} non-breaking, ${tally.info} info; ${diff.assumptions.length} assumption changes`,
  ];
  if (diff.changes.length) lines.push("", ...diff.changes.map(changeLine));
  if (gate.acknowledged.length) lines.push("", "Acknowledged:", ...gate.acknowledged.map(({ change, reason }) => `  ${change.id} — ${reason}`));
  if (gate.unused.length) lines.push("", "Acknowledgements that name no change of this diff:", ...gate.unused.map((entry) => `  ${entry.change}`));
  if (diff.assumptions.length) lines.push("", "Assumptions:", ...diff.assumptions.map((change) => `  ${assumptionLine(change)}`));
  lines.push(
    "",
    gate.unacknowledged.length
      ? `FAIL: ${gate.unacknowledged.length} breaking change(s) not acknowledged; name each in the acknowledgements file if it is deliberate`
      : "OK: no unacknowledged breaking change",
  );
  return lines.join("\n");
}

export function formatJson(diff: ContractDiff, gate: GateResult): string {
  return JSON.stringify(
    { ...diff, unacknowledged: gate.unacknowledged.map((change) => change.id), acknowledged: gate.acknowledged.map(({ change, reason }) => ({ change: change.id, reason })), unusedAcknowledgements: gate.unused },
    null,
    2,
  );
}
