// Filter semantics, item by item: every item a filtered list returns must match the filter. A
// predicate answers true (matches), a text saying how the item differs, or undefined when the item
// does not show what the filter looks at (then the check says so instead of guessing).
import { notChecked, passed, summarize, violation, type Finding } from "../results.js";

export type ItemMatch = true | string | undefined;
export type ItemPredicate = (item: any) => ItemMatch;

const idOf = (item: any) => (typeof item?.id === "string" ? item.id.slice(0, 8) : "?");

/**
 * Every item matches `predicate`. `label` names the filter as sent (LeaveStatus=Approved);
 * `unknownReason` says why some items cannot be told, for the report.
 */
export function checkItemsMatch(label: string, items: readonly any[], predicate: ItemPredicate, unknownReason = "the items do not show it"): Finding {
  if (items.length === 0) return notChecked(`${label}: no item returned, nothing to compare`);
  const mismatches: string[] = [];
  let unknown = 0;
  for (const item of items) {
    const match = predicate(item);
    if (match === undefined) unknown++;
    else if (match !== true) mismatches.push(`${idOf(item)}… ${match}`);
  }
  if (mismatches.length) return violation(`${label}: ${mismatches.length} of ${items.length} items do not match (${summarize(mismatches, 2)})`);
  if (unknown === items.length) return notChecked(`${label}: could not tell for any of ${items.length} items, ${unknownReason}`);
  const rest = unknown ? `; ${unknown} could not be told, ${unknownReason}` : "";
  return passed(`${label}: ${items.length - unknown} of ${items.length} items match${rest}`);
}

/** A status filter given by name (any letter case) or by number. */
export function leaveStatusPredicate(value: string, statusNames: ReadonlyMap<number, string>): ItemPredicate {
  const byNumber = /^\d+$/.test(value) ? Number(value) : undefined;
  const wantName = byNumber !== undefined ? statusNames.get(byNumber) : value;
  return (item) => {
    if (byNumber !== undefined && item?.leaveStatusId !== byNumber) return `leaveStatusId ${JSON.stringify(item?.leaveStatusId)}`;
    if (typeof item?.leaveStatus !== "string" || item.leaveStatus.toLowerCase() !== String(wantName).toLowerCase()) {
      return `leaveStatus ${JSON.stringify(item?.leaveStatus)}`;
    }
    return true;
  };
}

/** The item's field equals a value. */
export function fieldEquals(field: string, want: unknown): ItemPredicate {
  return (item) => (item?.[field] === want ? true : `${field} ${JSON.stringify(item?.[field])}`);
}

/** `YYYY-MM-DD` of a date text such as 2026-12-21T00:00:00, or undefined. */
export function dayOf(text: unknown): string | undefined {
  return typeof text === "string" && /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : undefined;
}

/** Leave starting between two dates, both included. */
export function startsBetween(from: string, to: string): ItemPredicate {
  return (item) => {
    const day = dayOf(item?.startDate);
    if (day === undefined) return `startDate ${JSON.stringify(item?.startDate)}`;
    return day >= from && day <= to ? true : `startDate ${day}`;
  };
}

/**
 * A search term found in one of the fields, ignoring letter case. When `hiddenFields` is set the
 * term may also match fields the item does not show (an email), so a miss cannot be told.
 */
export function containsTerm(term: string, fields: readonly string[], hiddenFields = false): ItemPredicate {
  const needle = term.toLowerCase();
  return (item) => {
    if (fields.some((f) => typeof item?.[f] === "string" && item[f].toLowerCase().includes(needle))) return true;
    return hiddenFields ? undefined : `${fields.map((f) => `${f} ${JSON.stringify(item?.[f])}`).join(", ")}`;
  };
}

/**
 * A repeated parameter (Companies) read in full: the list for several values holds exactly the
 * items of each value alone, added up, since the sets do not overlap (a department belongs to one
 * company, service-api.md 2.7). A service that reads only the first or the last value gives fewer.
 */
export function checkRepeatedParameter(name: string, alone: readonly { value: string; totalRecords: number }[], together: number): Finding {
  if (alone.length < 2) return notChecked(`${name}: fewer than two values known, nothing to repeat`);
  const sum = alone.reduce((n, a) => n + a.totalRecords, 0);
  const each = alone.map((a) => `${a.value.slice(0, 8)}… alone ${a.totalRecords}`).join(", ");
  const label = `${alone.map((a) => `${name}=${a.value.slice(0, 8)}…`).join("&")}`;
  if (together !== sum) {
    return violation(`${label} gives ${together} items but ${each} add up to ${sum}: the repeated ${name} parameter was not read in full`);
  }
  return passed(`${label} gives ${together} items, the ${sum} of each value alone (${each})`);
}

/** Matches through a lookup made elsewhere (details of the item); undefined when not looked up. */
export function lookedUp(known: ReadonlyMap<string, ItemMatch>): ItemPredicate {
  return (item) => known.get(item?.id);
}

export type Direction = "oldest first" | "newest first";

/** The items are ordered by a date field in the given direction (equal dates in any order). */
export function checkOrder(label: string, items: readonly any[], field: string, direction: Direction): Finding {
  if (items.length < 2) return notChecked(`${label}: fewer than two items, no order to see`);
  for (let i = 1; i < items.length; i++) {
    const before = Date.parse(items[i - 1]?.[field]);
    const after = Date.parse(items[i]?.[field]);
    if (Number.isNaN(before) || Number.isNaN(after)) return violation(`${label}: item ${i} has no readable ${field}`);
    const wrong = direction === "oldest first" ? after < before : after > before;
    if (wrong) {
      return violation(`${label}: not ${direction}: item ${i} has ${field} ${items[i - 1][field]}, item ${i + 1} ${items[i][field]}`);
    }
  }
  return passed(`${label}: ${items.length} items ${direction} by ${field}`);
}

/** A search term taken from inside a word of a name: three letters after the first, lower case. */
export function searchTermFrom(name: unknown): string | undefined {
  if (typeof name !== "string") return undefined;
  const words = name.split(/\s+/).filter((w) => /^[\p{L}]{4,}$/u.test(w));
  const word = words.sort((a, b) => b.length - a.length)[0];
  return word?.slice(1, 4).toLowerCase();
}

/** The same text with every letter's case swapped: a case-insensitive search must give the same result. */
export function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join("");
}
