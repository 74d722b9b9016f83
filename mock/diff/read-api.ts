// The read API: the OpenAPI document's paths compared by api-smart-diff (which follows references
// and knows request and response directions), named and classified by the package's rules.
import { apiCompare, type Diff } from "api-smart-diff";
import type { Change } from "./contract.js";
import { describeReadApi, type Described } from "./describe.js";
import { reachableComponents, withoutUnchangedPaths, type Json } from "./json.js";
import { classify, type Reader } from "./rules.js";

/** The read API alone: no webhooks, and only the components the paths reach. */
function readApiView(doc: Json): Json {
  const { webhooks: _webhooks, components = {}, ...rest } = doc ?? {};
  return {
    ...rest,
    paths: rest.paths ?? {},
    components: { ...reachableComponents(doc, [rest.paths ?? {}]), securitySchemes: components.securitySchemes ?? {} },
  };
}

/** Diffs said elsewhere: components (at each operation using them), a whole path item (per operation), assumption marks. */
const skip = (diff: Diff) =>
  diff.path[0] === "components" || (diff.path[0] === "paths" && diff.path.length === 2) || diff.path.at(-1) === "x-assumption";

export function compareReadApi(before: Json, after: Json): Change[] {
  return compareViews(readApiView(before), readApiView(after), { document: "OpenAPI", scope: "read API" }, "client", (diff, docOf) =>
    skip(diff) ? undefined : describeReadApi(diff.path, diff.action, diff.before, diff.after, docOf),
  );
}

/** What api-smart-diff finds between two OpenAPI-shaped views, named by `describe` (undefined: skipped) and classified for `reader`. */
export function compareViews(
  whole: Json,
  wholeAfter: Json,
  meta: Pick<Change, "document" | "scope">,
  reader: Reader,
  describe: (diff: Diff, docOf: Json) => Described | undefined,
): Change[] {
  const [before, after] = withoutUnchangedPaths(whole, wholeAfter);
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const { diffs } = apiCompare(before, after);
  const changes: Change[] = [];
  for (const diff of diffs) {
    const described = describe(diff, diff.action === "remove" ? before : after);
    if (!described) continue;
    const verdict = classify(diff.type, described, diff.action, reader, diff.path.at(-1));
    changes.push({ kind: verdict.kind, ...meta, place: described.place, what: described.what, why: verdict.why, id: `${meta.document} ${described.place}: ${described.what}` });
  }
  return changes;
}
