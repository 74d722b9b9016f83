// Acknowledged breaking changes: a reviewed file naming each deliberate break by its id (the text
// the report prints before " — "), so the gate lets it through. Parsing is strict: a malformed
// file is an error, never an empty list.
import type { Change } from "./contract.js";

export interface Acknowledgement {
  change: string;
  reason: string;
}

export class AcknowledgementsError extends Error {
  override name = "AcknowledgementsError";
}

/** The file's text → its entries: `{"acknowledged": [{"change": "<id>", "reason": "..."}]}`. */
export function parseAcknowledgements(text: string, file: string): Acknowledgement[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new AcknowledgementsError(`${file}: not JSON (${(error as Error).message})`);
  }
  const list = (data as { acknowledged?: unknown })?.acknowledged;
  if (!Array.isArray(list)) throw new AcknowledgementsError(`${file}: wants {"acknowledged": [{"change": "<id>", "reason": "<why>"}]}`);
  return list.map((entry, index) => {
    const { change, reason } = (entry ?? {}) as Record<string, unknown>;
    if (typeof change !== "string" || change.trim() === "") throw new AcknowledgementsError(`${file}: entry ${index + 1} has no "change" naming the change`);
    if (typeof reason !== "string" || reason.trim() === "") throw new AcknowledgementsError(`${file}: entry ${index + 1} (${change}) has no "reason"`);
    return { change: change.trim(), reason: reason.trim() };
  });
}

export interface GateResult {
  /** Breaking changes no acknowledgement names: each one fails the gate. */
  unacknowledged: Change[];
  acknowledged: Array<{ change: Change; reason: string }>;
  /** Acknowledgements that name no change of this diff (stale or misspelt). */
  unused: Acknowledgement[];
}

export function applyAcknowledgements(changes: Change[], acknowledgements: Acknowledgement[]): GateResult {
  const byId = new Map(acknowledgements.map((entry) => [entry.change, entry]));
  const used = new Set<string>();
  const result: GateResult = { unacknowledged: [], acknowledged: [], unused: [] };
  for (const change of changes) {
    if (change.kind !== "breaking") continue;
    const entry = byId.get(change.id);
    if (entry) {
      used.add(entry.change);
      result.acknowledged.push({ change, reason: entry.reason });
    } else result.unacknowledged.push(change);
  }
  result.unused = acknowledgements.filter((entry) => !used.has(entry.change));
  return result;
}
