// What handlers share: refusals worded as the HTTP layer words Prism's findings ("Invalid
// parameter X: must be ..., got ...", "Missing parameter X: ..."), the caller's organisation, and
// the search term's reading. Parameters arrive validated and typed (contract.ts); only rules the
// spec cannot express are decided here.
import type { Dataset, OrganizationData } from "../../data/dataset.js";
import { quote } from "../../kernel/text.js";
import type { Page } from "../../data/paging.js";
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

/** Runs a handler body: its data, or the failure result of a Refusal. */
export function answer(body: () => unknown): ResourceResult {
  try {
    return { ok: true, data: body() };
  } catch (error) {
    return refused(error);
  }
}

/** Runs a list handler's body: its page, with the page's JSON text joined from its items' texts (pageText). */
export function answerPage(body: () => Page<object>): ResourceResult {
  try {
    const page = body();
    return { ok: true, data: page, text: pageText(page) };
  } catch (error) {
    return refused(error);
  }
}

/** A Refusal as the failure result; anything else is a bug and propagates. */
function refused(error: unknown): ResourceResult {
  if (error instanceof Refusal) return error.field === undefined ? { ok: false, kind: error.kind, message: error.message } : { ok: false, kind: error.kind, message: error.message, field: error.field };
  throw error;
}

/** A refusal of a parameter's value, worded as the HTTP layer words Prism's findings. */
export function invalidParameter(name: string, expected: string, given: string): Refusal {
  return badRequest(`Invalid parameter ${name}: must be ${expected}, got ${quote(given)}.`, name);
}

export function missingParameter(name: string, why: string): Refusal {
  return badRequest(`Missing parameter ${name}: ${why}.`, name);
}

/**
 * `make`, remembered per record (its last argument) and frozen: records are replaced, never changed,
 * so what is made from one stays true, and every answer may share it.
 */
export function perRecord<A extends unknown[], R extends object, T>(make: (...args: [...A, R]) => T): (...args: [...A, R]) => T {
  const made = new WeakMap<R, T>();
  return (...args) => {
    const record = args[args.length - 1] as R;
    let item = made.get(record);
    if (item === undefined) made.set(record, (item = Object.freeze(make(...args))));
    return item;
  };
}

/**
 * A page as JSON, the bytes JSON.stringify writes: each item's text written once and kept while the
 * item lives. perRecord's items are frozen and made once per record, and a record is replaced, never
 * changed, so a kept text stays true and goes with its record; an item that is not frozen is written anew.
 */
export function pageText(page: Page<object>): string {
  let text = "";
  for (const [name, value] of Object.entries(page)) {
    if (value === undefined) continue;
    text += `${text === "" ? "{" : ","}${JSON.stringify(name)}:${name === "data" ? `[${page.data.map(itemText).join(",")}]` : JSON.stringify(value)}`;
  }
  return text === "" ? "{}" : `${text}}`;
}

const itemTexts = new WeakMap<object, string>();

function itemText(item: object): string {
  if (!Object.isFrozen(item)) return JSON.stringify(item);
  let text = itemTexts.get(item);
  if (text === undefined) itemTexts.set(item, (text = JSON.stringify(item)));
  return text;
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
