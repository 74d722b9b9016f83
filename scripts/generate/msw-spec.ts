// generated/msw-spec.json: what the MSW handlers read of the two documents, for the operations they
// serve (mock/edges/msw/served.ts) and nothing more: Prism's reader's output for those operations
// (as generated/prism-operations.json holds it) and the part of each document the mock reads beside
// it (request bodies, x-case-insensitive parameters: documentExtras), each repeated schema or example
// written once. A page's bundle carries this instead of both documents and every operation's Prism output.
import { documentExtras } from "../../mock/kernel/spec.js";
import { shareRepeats, type SharedJson } from "../../mock/kernel/shared-json.js";
import { SERVED_IDS } from "../../mock/edges/msw/served.js";

/** What the handlers read of each document, by file name. */
export type MswSpec = Record<string, { document: object; operations: unknown[] }>;

/** The handlers' part of the documents, its repeated schemas and examples written once (mock/kernel/shared-json.ts). */
export function renderMswSpec(documents: Record<string, object>, prismOperations: Record<string, unknown[]>): SharedJson {
  const keep = (operationId: string) => SERVED_IDS.has(operationId);
  const spec: MswSpec = Object.fromEntries(
    Object.entries(documents).map(([name, document]) => [name, { document: documentExtras(document, keep), operations: (prismOperations[name] ?? []).filter((op) => keep((op as { iid: string }).iid)) }]),
  );
  return shareRepeats(spec);
}
