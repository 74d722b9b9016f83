// Which operations a request path names (`/v1/department/{id}`): apart from spec.ts, which loads
// Prism's reader, because verify() in a browser page's first chunk needs the rule and not Prism.
import { pathFragment } from "../../src/query.js";

/** A path template's segment that stands for a parameter (`{id}`). */
export const isTemplate = (segment: string) => /^\{.+\}$/.test(segment);

/** The operations whose path template matches `path` exactly (a 405's: the path is right, the method not). */
export function operationsAt<Operation extends { path: string }>(operations: Iterable<Operation>, path: string): Operation[] {
  // Fragments decoded as Prism's router reads them, so the methods named are those Prism found.
  const given = path.split("/").slice(1).map(pathFragment);
  return [...operations].filter((op) => {
    const template = op.path.split("/").slice(1);
    return template.length === given.length && template.every((f, i) => (isTemplate(f) ? given[i] !== "" : f === given[i]));
  });
}
