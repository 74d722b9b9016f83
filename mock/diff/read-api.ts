// The read API: the OpenAPI document's paths compared by api-smart-diff (which follows references
// and knows request and response directions), named and classified by the package's rules.
import { apiCompare } from "api-smart-diff";
import type { Change } from "./contract.js";
import { describeReadApi } from "./describe.js";
import { reachableComponents, withoutUnchangedPaths, type Json } from "./json.js";
import { classify, type LibraryDiff } from "./rules.js";

/** The read API alone: no webhooks, and only the components the paths reach. */
export function readApiView(doc: Json): Json {
  const { webhooks: _webhooks, components = {}, ...rest } = doc ?? {};
  return {
    ...rest,
    paths: rest.paths ?? {},
    components: { ...reachableComponents(doc, [rest.paths ?? {}]), securitySchemes: components.securitySchemes ?? {} },
  };
}

/**
 * Diffs that say nothing a consumer needs, or say it twice: copies under components (reported at
 * each operation using them), a whole path item (api-smart-diff reports each of its operations),
 * assumption marks (listed apart).
 */
const skip = (diff: LibraryDiff) =>
  diff.path[0] === "components" || (diff.path[0] === "paths" && diff.path.length === 2) || diff.path.at(-1) === "x-assumption";

export function compareReadApi(before: Json, after: Json): Change[] {
  const [a, b] = withoutUnchangedPaths(readApiView(before), readApiView(after));
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  const { diffs } = apiCompare(a, b) as { diffs: LibraryDiff[] };
  const changes: Change[] = [];
  for (const diff of diffs) {
    if (skip(diff)) continue;
    const described = describeReadApi(diff.path, diff.action, diff.before, diff.after, diff.action === "remove" ? a : b);
    const verdict = classify(diff.type, described, diff.action, "client", diff.path.at(-1));
    changes.push({
      kind: verdict.kind,
      document: "OpenAPI",
      scope: "read API",
      place: described.place,
      what: described.what,
      why: verdict.why,
      id: `OpenAPI ${described.place}: ${described.what}`,
    });
  }
  return changes;
}
