// The whole comparison of two versions of the contract: the read API, the OpenAPI webhooks, the
// AsyncAPI events, and the assumptions of both documents.
import { compareAsyncApiDocument } from "./asyncapi.js";
import { compareAssumptions } from "./assumptions.js";
import type { Change, Contract, ContractDiff } from "./contract.js";
import { compareMessages, compareWebhooks } from "./events.js";
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
function mergeFieldChanges(changes: Change[]): Change[] {
  const key = (change: Change, field: string) => `${change.document}|${change.scope}|${change.place}|${field}`;
  const fieldOf = (pattern: RegExp, change: Change) => pattern.exec(change.what)?.[1];
  const REMOVED = /^field `(.+)` removed$/;
  const ADDED = /^field `(.+)` added$/;
  const NOW_REQUIRED = /^`(.+)` now required$/;
  const NO_LONGER_REQUIRED = /^`(.+)` no longer required$/;
  const removed = new Set<string>();
  const added = new Set<string>();
  const nowRequired = new Map<string, Change>();
  for (const change of changes) {
    const [gone, fresh, required] = [fieldOf(REMOVED, change), fieldOf(ADDED, change), fieldOf(NOW_REQUIRED, change)];
    if (gone) removed.add(key(change, gone));
    if (fresh) added.add(key(change, fresh));
    if (required) nowRequired.set(key(change, required), change);
  }
  const merged: Change[] = [];
  for (const change of changes) {
    const loosened = fieldOf(NO_LONGER_REQUIRED, change);
    if (loosened && removed.has(key(change, loosened))) continue;
    const required = fieldOf(NOW_REQUIRED, change);
    if (required && added.has(key(change, required))) continue; // reported with the field below
    const fresh = fieldOf(ADDED, change);
    const pair = fresh ? nowRequired.get(key(change, fresh)) : undefined;
    if (fresh && pair) {
      const what = `required field \`${fresh}\` added`;
      merged.push({ ...pair, what, id: `${pair.document} ${pair.place}: ${what}` });
    } else merged.push(change);
  }
  return merged;
}

export function compareContracts(base: Contract, head: Contract): ContractDiff {
  const changes = unique(mergeFieldChanges([
    ...compareReadApi(base.openapi, head.openapi),
    ...compareWebhooks(base.openapi, head.openapi),
    ...compareAsyncApiDocument(base.asyncapi, head.asyncapi),
    ...compareMessages(base.asyncapi, head.asyncapi),
  ])).sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
  return {
    base: base.label,
    head: head.label,
    changes,
    assumptions: [...compareAssumptions(base.openapi, head.openapi, "OpenAPI"), ...compareAssumptions(base.asyncapi, head.asyncapi, "AsyncAPI")],
  };
}
