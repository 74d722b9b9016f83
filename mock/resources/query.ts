// Defensive parsing of query and path parameters. The HTTP layer has validated them against the
// spec already (Prism's validators, mock/server/params.ts); this still never trusts them, and its
// refusals read like the HTTP layer's: "Invalid parameter X: must be ..., got ...", or "Missing
// parameter X: ...". Only rules the spec cannot express (StartDate with EndDate) reach a caller.
import { parseIsoDate } from "../data/dates.js";
import type { Dataset, OrganizationData } from "../data/dataset.js";
import { DEFAULT_PAGE_NUMBER, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../data/paging.js";
import { quote } from "../server/text.js";
import type { ResourceRequest, ResourceResult } from "./contract.js";

export type Query = ResourceRequest["query"];

/** A refusal a handler decides: 400 for a bad parameter, 404 for an id outside the organisation. */
export class Refusal extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new Refusal(400, message);

/** Runs a handler body; a Refusal becomes the failure result, anything else is a bug and propagates. */
export function answer(body: () => unknown): ResourceResult {
  try {
    return { ok: true, data: body() };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, status: error.status, message: error.message };
    throw error;
  }
}

export { quote };

/** A refusal of a parameter's value, worded as the HTTP layer words Prism's findings. */
export function invalidParameter(name: string, expected: string, given: string): Refusal {
  return badRequest(`Invalid parameter ${name}: must be ${expected}, got ${quote(given)}.`);
}

export function missingParameter(name: string, why: string): Refusal {
  return badRequest(`Missing parameter ${name}: ${why}.`);
}

/** One value of a parameter; an empty value counts as absent; a repeated parameter is refused. */
export function single(query: Query, name: string): string | undefined {
  const raw = query[name];
  if (Array.isArray(raw)) {
    if (raw.length > 1) throw badRequest(`Invalid parameter ${name}: must be given once, got ${raw.length} values.`);
    return raw[0] === "" ? undefined : raw[0];
  }
  return raw === undefined || raw === "" ? undefined : raw;
}

/** Every value of a repeatable parameter (Companies=a&Companies=b), empty ones left out. */
export function repeated(query: Query, name: string): string[] {
  const raw = query[name];
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return values.filter((v) => v !== "");
}

export function integer(query: Query, name: string, min: number, max: number, fallback: number): number {
  const text = single(query, name);
  if (text === undefined) return fallback;
  const value = /^[+-]?\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) throw invalidParameter(name, `an integer from ${min} to ${max}`, text);
  return value;
}

const INT32_MAX = 2_147_483_647;

export function paging(query: Query): { pageNumber: number; pageSize: number } {
  return {
    pageNumber: integer(query, "PageNumber", 1, INT32_MAX, DEFAULT_PAGE_NUMBER),
    pageSize: integer(query, "PageSize", 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
  };
}

/** OrderBy: 0 oldest first, 1 newest first (the default). True when newest first. */
export function newestFirst(query: Query): boolean {
  const text = single(query, "OrderBy");
  if (text === undefined) return true;
  const t = text.trim();
  if (t !== "0" && t !== "1") throw invalidParameter("OrderBy", "0 (oldest first) or 1 (newest first)", text);
  return t === "1";
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A uuid, lower-cased as the dataset writes them. */
export function uuidValue(text: string, name: string): string {
  const t = text.trim();
  if (!UUID.test(t)) throw invalidParameter(name, "a uuid", text);
  return t.toLowerCase();
}

export function uuid(query: Query, name: string): string | undefined {
  const text = single(query, name);
  return text === undefined ? undefined : uuidValue(text, name);
}

export function requiredUuid(query: Query, name: string): string {
  const value = uuid(query, name);
  if (value === undefined) throw missingParameter(name, "it is required, a uuid");
  return value;
}

/** A date parameter `YYYY-MM-DD`, returned as the same ISO text. */
export function isoDateParam(query: Query, name: string): string | undefined {
  const text = single(query, name);
  if (text === undefined) return undefined;
  const t = text.trim();
  if (parseIsoDate(t) === undefined) throw invalidParameter(name, "a date written YYYY-MM-DD", text);
  return t;
}

/** true or false, written so (the HTTP layer refuses TRUE and 1 too). */
export function booleanParam(query: Query, name: string): boolean | undefined {
  const text = single(query, name);
  if (text === undefined) return undefined;
  if (text !== "true" && text !== "false") throw invalidParameter(name, "true or false", text);
  return text === "true";
}

/** A search term, trimmed; blank counts as absent. */
export function searchTerm(query: Query, name = "SearchTerm"): string | undefined {
  const text = single(query, name)?.trim();
  return text === undefined || text === "" ? undefined : text;
}

/** The caller's organisation (the HTTP layer resolved it from the API key). */
export function organizationOf(dataset: Dataset, request: ResourceRequest): OrganizationData {
  const org = dataset.organizationById.get(request.organizationId);
  if (!org) throw new Refusal(404, `Not found: no organisation with id ${request.organizationId}.`);
  return org;
}

/** A path id: a uuid, or a 400 naming the parameter. */
export function pathId(request: ResourceRequest, name = "id"): string {
  const text = request.path[name];
  if (text === undefined || text === "") throw missingParameter(name, "it is required in the path, a uuid");
  return uuidValue(text, name);
}
