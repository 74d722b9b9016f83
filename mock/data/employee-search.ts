// The employee side of the leave request list's SearchTerm: the employees whose full name or email
// holds the term, in any letter case. Their texts in lower case and an index of the pairs of
// characters in them are made on the first search and kept until an employee changes
// (forgetEmployeeTexts), so a search tests only the employees whose texts hold the term's rarest
// pair: its work follows the matches, not the organisation's size.
import type { EmployeeRecord } from "./records.js";

interface SearchTexts {
  /** Each employee's full name and email in lower case, each followed by SEPARATOR, in the employees' order. */
  texts: string[];
  ids: string[];
  /** Per pair of characters, the employees (places in `texts`, ascending) whose texts hold it. */
  byPair: Map<string, Int32Array>;
}

/** Between and after an employee's texts: no term holding it is in one text. */
const SEPARATOR = "\u0000";
const kept = new WeakMap<readonly EmployeeRecord[], SearchTexts>();

/** The ids of the employees whose full name or email holds `lowerTerm` (lower case), in the employees' order. */
export function employeesMatching(employees: readonly EmployeeRecord[], lowerTerm: string): Set<string> {
  let search = kept.get(employees);
  if (!search) kept.set(employees, (search = searchTextsOf(employees)));
  const { texts, ids, byPair } = search;
  if (lowerTerm === "") return new Set(ids);
  const found = new Set<string>();
  if (lowerTerm.includes(SEPARATOR)) return found;
  if (lowerTerm.length === 1) {
    for (let k = 0; k < texts.length; k++) if (texts[k].includes(lowerTerm)) found.add(ids[k]);
    return found;
  }
  // Only the employees whose texts hold every pair of the term can hold it: those of its rarest pair are tested.
  let fewest: Int32Array | undefined;
  for (let i = 0; i + 2 <= lowerTerm.length; i++) {
    const holders = byPair.get(lowerTerm.slice(i, i + 2));
    if (!holders) return found;
    if (!fewest || holders.length < fewest.length) fewest = holders;
  }
  // A term of two characters is its one pair: every holder holds it.
  const exact = lowerTerm.length === 2;
  for (const k of fewest!) if (exact || texts[k].includes(lowerTerm)) found.add(ids[k]);
  return found;
}

/** Forgets the kept texts of `employees` (one of them changed, or one was added). */
export function forgetEmployeeTexts(employees: readonly EmployeeRecord[]): void {
  kept.delete(employees);
}

function searchTextsOf(employees: readonly EmployeeRecord[]): SearchTexts {
  const texts = employees.map((e) => `${e.fullName.toLowerCase()}${SEPARATOR}${e.email.toLowerCase()}${SEPARATOR}`);
  const lists = new Map<string, number[]>();
  texts.forEach((text, k) => {
    for (let i = 0; i + 2 <= text.length; i++) {
      const pair = text.slice(i, i + 2);
      if (pair.includes(SEPARATOR)) continue;
      const list = lists.get(pair);
      if (!list) lists.set(pair, [k]);
      else if (list[list.length - 1] !== k) list.push(k);
    }
  });
  return { texts, ids: employees.map((e) => e.id), byPair: new Map([...lists].map(([pair, list]) => [pair, Int32Array.from(list)])) };
}
