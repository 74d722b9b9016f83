// The operations a request no operation matched most likely meant, for the 404's "did you mean" and
// the journal's unmatched entries, in the contract's terms rather than by string distance: a path
// differing only in letter case or slashes; the same segments but one (past the first: /v1, /_mock);
// or a shared prefix of at least the version and the resource, a resource in the plural, another case
// or with - or _ counting alike. The method ranks first among equals; one pass over the operations.
import type { SpecOperation } from "../kernel/spec.js";
import { isTemplate } from "../kernel/path-template.js";
import { printable } from "../kernel/text.js";

export interface NearMiss {
  /** The path the caller meant when theirs differs only in letter case or slashes (ids kept as given). */
  loose?: string;
  /** The operations meant, best first (at most MAX_NEAREST). */
  nearest: SpecOperation[];
}

const MAX_NEAREST = 3;
/** Segments compared; a longer path is no nearer for its length. */
const MAX_SEGMENTS = 16;


/** A segment as the contract's resource names are compared: letter case, - and _, a plural s aside. */
function normal(segment: string): string {
  const plain = segment.toLowerCase().replace(/[-_]/g, "");
  return plain.length > 1 && plain.endsWith("s") ? plain.slice(0, -1) : plain;
}

export function nearMiss(operations: readonly SpecOperation[], method: string, path: string): NearMiss {
  const given = path.split("/").filter((f) => f !== "").slice(0, MAX_SEGMENTS);
  if (given.length === 0) return { nearest: [] };
  const loose = looseMatch(operations, method, given);
  if (loose) return loose;
  const normalGiven = given.map(normal);
  let best: { rank: number[]; operations: SpecOperation[] } | undefined;
  for (const op of operations) {
    const template = op.path.split("/").slice(1);
    const agrees = (i: number) => i < template.length && (isTemplate(template[i]) || normal(template[i]) === normalGiven[i]);
    let prefix = 0;
    while (prefix < given.length && agrees(prefix)) prefix++;
    const oneOff = template.length === given.length && prefix >= 1 && given.filter((_, i) => !agrees(i)).length === 1;
    if (!oneOff && prefix < 2) continue;
    // Higher is nearer, compared in order: the shared prefix, one segment off, the method, the length, literal segments.
    const rank = [prefix, oneOff ? 1 : 0, op.method === method ? 1 : 0, -Math.abs(template.length - given.length), -template.filter(isTemplate).length];
    const order = best ? compare(rank, best.rank) : 1;
    if (order > 0) best = { rank, operations: [op] };
    else if (order === 0) best!.operations.push(op);
  }
  return { nearest: best?.operations.slice(0, MAX_NEAREST) ?? [] };
}

/** What the caller meant, in the words of a 404 and of the proxy's finding; undefined when nothing is near. */
export function meant(near: NearMiss): string | undefined {
  if (near.loose !== undefined) return `did you mean ${printable(near.loose, 80)}? Paths are case-sensitive and have no trailing slash`;
  if (near.nearest.length > 0) return `did you mean ${near.nearest.map((op) => `${op.method} ${op.path}`).join(" or ")}?`;
  return undefined;
}

/** Letter case, a trailing slash or doubled slashes only (/V1/LeaveRequest/list/ for /v1/leaverequest/list). */
function looseMatch(operations: readonly SpecOperation[], method: string, given: string[]): NearMiss | undefined {
  const found = operations.filter((op) => {
    const template = op.path.split("/").slice(1);
    return template.length === given.length && template.every((f, i) => isTemplate(f) || f.toLowerCase() === given[i].toLowerCase());
  });
  if (found.length === 0) return undefined;
  const sameMethod = found.filter((op) => op.method === method);
  const nearest = (sameMethod.length > 0 ? sameMethod : found).slice(0, MAX_NEAREST);
  const template = nearest[0].path.split("/").slice(1);
  return { loose: `/${template.map((f, i) => (isTemplate(f) ? given[i] : f)).join("/")}`, nearest };
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}
