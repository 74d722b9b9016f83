// Path templates of the spec (`/v1/department/{id}`) against request paths: which operations a path
// names. A module of its own, apart from the spec's reading (spec.ts, which loads Prism's reader),
// because the journal's verify() in a browser page's first chunk needs the rule and not Prism.
import { pathFragment } from "../../src/query.js";

/** A path template's segment that stands for a parameter (`{id}`). */
export const isTemplate = (segment: string) => /^\{.+\}$/.test(segment);

/** The operations whose path template matches `path` exactly (a 405's: the path is right, the method not). */
export function operationsAt<Operation extends { path: string }>(operations: Iterable<Operation>, path: string): Operation[] {
  // Fragments decoded as Prism's router reads them (a fragment that does not decode stays as sent),
  // so the methods named are those of the path Prism found.
  const given = path.split("/").slice(1).map(pathFragment);
  return [...operations].filter((op) => {
    const template = op.path.split("/").slice(1);
    return template.length === given.length && template.every((f, i) => (isTemplate(f) ? given[i] !== "" : f === given[i]));
  });
}
