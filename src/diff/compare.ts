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

export function compareContracts(base: Contract, head: Contract): ContractDiff {
  const changes = unique([
    ...compareReadApi(base.openapi, head.openapi),
    ...compareWebhooks(base.openapi, head.openapi),
    ...compareAsyncApi(base.asyncapi, head.asyncapi),
  ]).sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
  return {
    base: base.label,
    head: head.label,
    changes,
    assumptions: [...compareAssumptions(base.openapi, head.openapi, "OpenAPI"), ...compareAssumptions(base.asyncapi, head.asyncapi, "AsyncAPI")],
  };
}
