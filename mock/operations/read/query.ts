// What handlers share: refusals worded as the HTTP layer words Prism's findings ("Invalid
// parameter X: must be ..., got ...", "Missing parameter X: ..."), the caller's organisation, and
// the search term's reading. Parameters arrive validated and typed (contract.ts); only rules the
// spec cannot express are decided here.
import type { Dataset, OrganizationData } from "../../data/dataset.js";
import { quote } from "../../kernel/text.js";
import { writtenOnce } from "../../kernel/envelope.js";
import type { ResourceRequest, ResourceResult } from "./contract.js";

/** A refusal a handler decides: a bad combination of parameters, or an id outside the organisation. */
export class Refusal extends Error {
  constructor(
    readonly kind: "invalid" | "not-found",
    message: string,
    /** The parameter at fault, when one is. */
    readonly field?: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) => new Refusal("invalid", message, field);

/** Runs a handler body; a Refusal becomes the failure result, anything else is a bug and propagates. */
export function answer(body: () => unknown): ResourceResult {
  try {
    return { ok: true, data: body() };
  } catch (error) {
    if (error instanceof Refusal) return error.field === undefined ? { ok: false, kind: error.kind, message: error.message } : { ok: false, kind: error.kind, message: error.message, field: error.field };
    throw error;
  }
}

/** A refusal of a parameter's value, worded as the HTTP layer words Prism's findings. */
export function invalidParameter(name: string, expected: string, given: string): Refusal {
  return badRequest(`Invalid parameter ${name}: must be ${expected}, got ${quote(given)}.`, name);
}

export function missingParameter(name: string, why: string): Refusal {
  return badRequest(`Missing parameter ${name}: ${why}.`, name);
}

/** `make`, remembered per record (its last argument), frozen and its JSON written once: records are replaced, never changed, so every answer may share it. */
export function perRecord<A extends unknown[], R extends object, T>(make: (...args: [...A, R]) => T): (...args: [...A, R]) => T {
  const made = new WeakMap<R, T>();
  return (...args) => {
    const record = args[args.length - 1] as R;
    let item = made.get(record);
    if (item === undefined) made.set(record, (item = writtenOnce(Object.freeze(make(...args)))));
    return item;
  };
}

/** A search term, trimmed; blank counts as absent (the service's reading, not the spec's). */
export function searchTerm(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

/** The caller's organisation (the HTTP layer resolved it from the API key). */
export function organizationOf(dataset: Dataset, request: Pick<ResourceRequest, "organizationId">): OrganizationData {
  const org = dataset.organizationById.get(request.organizationId);
  if (!org) throw new Refusal("not-found", `Not found: no organisation with id ${request.organizationId}.`);
  return org;
}
