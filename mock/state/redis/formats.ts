// What the Lua scripts (lua/) and the TypeScript that reads what they write must agree on, in one
// place: the answer codes, the tally's fields, the members of the sorted sets and hashes ("a|b|c"),
// the delivery states. The scripts' text interpolates these; scriptsDigest (scripts.ts) names the
// whole, so replicas of releases whose formats differ refuse each other's state with one line.
import { FINAL_STATES } from "../../webhooks/delivery-log.js";
import type { OperationTally } from "../../worlds/journal/tally.js";

export { mockKeys, worldKeys, allWorldKeys, type WorldKeys } from "./keys.js";

/** What admission answers, per request (a stale or gone world: once, for the whole batch). */
export const ADMITTED = { stale: 0, gone: 1, rateLimited: 2, forbidden: 3, fault: 4, admitted: 5 } as const;

/** What the publish script answers when it does not publish: another replica changed the world first, or it is gone. */
export const REFUSED = { conflict: 0, gone: -1 } as const;

/** The fields of a world's tally hash: counters, and prefixes followed by an operation id (and a status or a parameter name). */
export const TALLY = {
  /** Requests recorded. */
  recorded: "r",
  /** Requests to a path no operation has. */
  unmatched: "u",
  /** Entries the journal's bound let go. */
  dropped: "dropped",
  /** n:<operationId>: requests of the operation. */
  requests: "n:",
  /** s:<operationId>:<status>. */
  statuses: "s:",
  /** p:<operationId>:<name>: requests naming the parameter (an operation id has no colon; a name may). */
  parameters: "p:",
  /** pc:<operationId>: parameter names counted so far. */
  parameterNames: "pc:",
} as const;

/** Reads one field of the tally into the operations' counts; answers whether it was an operation's. */
export function readTallyField(field: string, n: number, tallyOf: (operationId: string) => OperationTally): boolean {
  if (field.startsWith(TALLY.requests)) tallyOf(field.slice(TALLY.requests.length)).requests = n;
  else if (field.startsWith(TALLY.statuses)) {
    const at = field.lastIndexOf(":");
    tallyOf(field.slice(TALLY.statuses.length, at)).statuses.set(Number(field.slice(at + 1)), n);
  } else if (field.startsWith(TALLY.parameters)) {
    const at = field.indexOf(":", TALLY.parameters.length);
    tallyOf(field.slice(TALLY.parameters.length, at)).parameters.set(field.slice(at + 1), n);
  } else return false;
  return true;
}

/** Between the parts of a member; `~` sorts after every part, so [x| to (x|~ is every member starting with x. */
const SEP = "|";
const AFTER = "~";

/** The members, by their parts in order: what the scripts join and the parsers split. */
export const MEMBERS = {
  /** The log, by organisation then sequence (sorted set `order`). */
  order: ["org", "seq", "id"],
  /** Deliveries waiting, by endpoint then sequence (sorted set `waiting`). */
  waiting: ["endpoint", "seq", "id"],
  /** Where a delivery sits (hash `index`). */
  index: ["endpoint", "seq", "org", "event"],
  /** A delivery's state beside its entry (hash `states`). */
  state: ["state", "nextAt"],
} as const;

type Parts<K extends keyof typeof MEMBERS> = Record<(typeof MEMBERS)[K][number], string>;

/** A member's parts by name (the last part takes the rest). */
export function parseMember<K extends keyof typeof MEMBERS>(kind: K, text: string): Parts<K> {
  const names = MEMBERS[kind];
  const parts: Record<string, string> = {};
  let rest = text;
  names.forEach((name, i) => {
    const bar = i === names.length - 1 ? -1 : rest.indexOf(SEP);
    parts[name] = bar < 0 ? rest : rest.slice(0, bar);
    rest = bar < 0 ? "" : rest.slice(bar + 1);
  });
  return parts as Parts<K>;
}

/** The lexicographic range of the members starting with `first` (ZRANGEBYLEX's min and max). */
export function membersOf(first: string): [min: string, max: string] {
  return [`[${first}${SEP}`, `(${first}${SEP}${AFTER}`];
}

/**
 * The same formats in Lua, for the scripts' text: `join_<kind>(parts)` and `split_<kind>(text)`
 * (a table of the parts by name), `range(first)` (ZRANGEBYLEX's min and max), `lastPart(text)`,
 * and FINAL, the delivery states a bound may let go of.
 */
export const LUA_FORMATS = [
  ...Object.entries(MEMBERS).flatMap(([kind, names]) => [
    `local function join_${kind}(p) return ${names.map((name) => `p.${name}`).join(` .. '${SEP}' .. `)} end`,
    `local function split_${kind}(text)`,
    `  local ${names.join(", ")} = string.match(text, '^${names.map((_, i) => (i === names.length - 1 ? "(.*)" : `([^${SEP}]*)`)).join(SEP)}$')`,
    `  return { ${names.map((name) => `${name} = ${name}`).join(", ")} }`,
    "end",
  ]),
  `local function range(first) return '[' .. first .. '${SEP}', '(' .. first .. '${SEP}${AFTER}' end`,
  `local function lastPart(text) return string.match(text, '([^${SEP}]+)$') end`,
  `local FINAL = { ${FINAL_STATES.map((state) => `${state} = true`).join(", ")} }`,
].join("\n");
