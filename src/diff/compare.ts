// The whole comparison of two versions of the contract: the read API, the OpenAPI webhooks, the
// AsyncAPI events, and the assumptions of both documents.
import { compareAsyncApi } from "./asyncapi.js";
import { compareAssumptions } from "./assumptions.js";
import type { Change, Contract, ContractDiff } from "./contract.js";
import { compareWebhooks } from "./events.js";
import { compareReadApi } from "./read-api.js";

const KIND_ORDER = { breaking: 0, "non-breaking": 1, info: 2 } as const;

/** One line per change; a change found twice (the same words at the same place) is listed once. */
function unique(changes: Change[]): Change[] {
  const seen = new Set<string>();
  return changes.filter((change) => (seen.has(change.id) ? false : (seen.add(change.id), true)));
}

/**
 * A field added or removed together with its `required` entry is one change: "field F removed"
 * covers "F no longer required", and "required field F added" replaces the pair for a new one.
 */
export function mergeFieldChanges(changes: Change[]): Change[] {
  const key = (change: Change, field: string) => `${change.document}|${change.scope}|${change.place}|${field}`;
  const removed = new Set<string>();
  const requiredAdded = new Map<string, Change>();
  for (const change of changes) {
    const gone = /^field `(.+)` removed$/.exec(change.what);
    if (gone) removed.add(key(change, gone[1]));
    const required = /^`(.+)` now required$/.exec(change.what);
    if (required) requiredAdded.set(key(change, required[1]), change);
  }
  const merged: Change[] = [];
  for (const change of changes) {
    const loosened = /^`(.+)` no longer required$/.exec(change.what);
    if (loosened && removed.has(key(change, loosened[1]))) continue;
    const added = /^field `(.+)` added$/.exec(change.what);
    const required = added && requiredAdded.get(key(change, added[1]));
    if (required) {
      const what = `required field \`${added[1]}\` added`;
      merged.push({ ...required, what, id: `${required.document} ${required.place}: ${what}` });
      continue;
    }
    if (/^`(.+)` now required$/.exec(change.what) && changes.some((other) => other.what === `field ${change.what.replace(/ now required$/, "")} added` && key(other, "") === key(change, ""))) continue;
    merged.push(change);
  }
  return merged;
}

export function compareContracts(base: Contract, head: Contract): ContractDiff {
  const changes = unique(mergeFieldChanges([
    ...compareReadApi(base.openapi, head.openapi),
    ...compareWebhooks(base.openapi, head.openapi),
    ...compareAsyncApi(base.asyncapi, head.asyncapi),
  ])).sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
  return {
    base: base.label,
    head: head.label,
    changes,
    assumptions: [...compareAssumptions(base.openapi, head.openapi, "OpenAPI"), ...compareAssumptions(base.asyncapi, head.asyncapi, "AsyncAPI")],
  };
}
