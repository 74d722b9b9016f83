// A world's journal as a Pact file, for every caller that asks for one (the vitest and Playwright
// journals' pact(), GET /_mock/requests?format=pact): the requests the filter keeps, with the
// matching rules read from the bundled document. Loaded when a pact is first asked for.
import type { SpecOperation } from "../kernel/spec.js";
import { listRequests, type CheckedFilter } from "../worlds/journal/requests.js";
import type { World } from "../worlds/world.js";
import { readBundledOpenapi } from "../../src/contract/bundled.js";
import { pactOf, type PactFile, type PactOptions } from "./export.js";

/** Why there is no pact: the bundled document cannot be read (a browser has no file system). */
export class PactDocumentUnavailable extends Error {
  override name = "PactDocumentUnavailable";
}

export async function journalPact(world: World, filter: CheckedFilter, operations: ReadonlyMap<string, SpecOperation>, options: PactOptions): Promise<PactFile> {
  const doc = await readBundledOpenapi().catch((error: unknown) => {
    throw new PactDocumentUnavailable(`this mock cannot read the bundled OpenAPI document the pact's rules come from (${error instanceof Error ? error.message : String(error)}); export from hr-mock serve`);
  });
  const view = await world.journal.view();
  return pactOf(listRequests(view, filter, operations).requests, world, operations, doc, options);
}
