// verify(filter, { times, within }): whether a world received what a test expects, waiting up to
// `within` milliseconds for requests still on their way (so a test of asynchronous code needs no
// sleep). A failure throws a VerificationError stating expected against actual and the near misses
// in the contract's terms (near-misses.ts).
import { MockOptionError } from "../../kernel/option-error.js";
import type { components } from "../../../generated/control-api.js";
import type { SpecOperation } from "../../kernel/spec.js";
import type { JournalView, WorldJournal } from "./port.js";
import { andThen, type Awaitable } from "../../kernel/awaitable.js";
import { describeFilter, describeNearMisses } from "./near-misses.js";
import { checkFilter, listRequests, matches, type CheckedFilter, type RecordedRequest, type RequestFilter } from "./requests.js";

/** `times` (default at least one) and `within`, milliseconds to wait for requests on their way (default 0: judge at once), as POST /_mock/requests/verify takes them. */
export type VerifyOptions = Omit<components["schemas"]["VerifyRequest"], "filter">;
/** How many matching requests are expected: exactly a number, or a range. */
export type Times = NonNullable<VerifyOptions["times"]>;

/** The timers `within` waits with (a test of verify injects its own). */
export interface VerifyClock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const REAL_CLOCK: VerifyClock = { setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) };

/** The longest `within`: ten minutes. */
const MAX_WITHIN_MS = 600_000;

/** A verification that did not hold; the message says what was expected, what came, and what came close. */
export class VerificationError extends Error {
  override name = "VerificationError";
  constructor(
    message: string,
    /** How many matching requests the journal held when the verification was judged. */
    readonly actual: number,
    /** The near misses, one line each, newest first. */
    readonly nearMisses: readonly string[],
  ) {
    super(message);
  }
}

type Range = Required<Exclude<Times, number>>;

/**
 * Resolves with the matching requests (newest first) when the journal holds as many as `times`
 * asks, at once or within `within` ms; rejects with a VerificationError otherwise. Mistakes in the
 * filter or options throw a MockOptionError naming them.
 */
export function verifyJournal(
  journal: WorldJournal,
  filter: RequestFilter,
  options: VerifyOptions | undefined,
  operations: ReadonlyMap<string, SpecOperation>,
  clock: VerifyClock = REAL_CLOCK,
): Promise<RecordedRequest[]> {
  let checked: CheckedFilter, range: Range, within: number;
  const countIn = (view: JournalView) => {
    let n = 0;
    for (const entry of view.newestFirst()) if (matches(checked, entry, operations)) n++;
    return n;
  };
  try {
    checked = checkFilter(filter, operations);
    range = rangeOf(options?.times);
    within = withinOf(options?.within);
    if (!journal.on) throw new MockOptionError("the journal is off (journalSize 0, or --journal-size 0): nothing is recorded to verify");
    // A journal in this process answers its view at once: the wait below starts before the caller goes on.
    return Promise.resolve(waitFor(journal.view()));
  } catch (error) {
    return Promise.reject(error);
  }

  function waitFor(seen: Awaitable<JournalView>): Awaitable<RecordedRequest[]> {
    return andThen(seen, (first) => {
      let view = first;
      let count = countIn(view);
      const judge = (): RecordedRequest[] => {
        if (count >= range.atLeast && count <= range.atMost) return listRequests(view, checked, operations).requests;
        throw failure(view, checked, range, within, count, operations);
      };
      // More arrivals cannot bring the count down: only a count still short of atLeast is worth waiting for.
      if (within === 0 || count >= range.atLeast) return judge();
      return new Promise<RecordedRequest[]>((resolve, reject) => {
        let settled = false;
        const end = (outcome: () => void) => {
          if (settled) return;
          settled = true;
          stop();
          clock.clearTimeout(timer);
          outcome();
        };
        const look = (last: boolean) =>
          Promise.resolve(journal.view()).then(
            (seen) => {
              view = seen;
              count = countIn(view);
              if (last || count >= range.atLeast) end(() => resolve(judge()));
            },
            (error: unknown) => end(() => reject(error)),
          ).catch((error: unknown) => reject(error));
        // Told when entries may have come (each one in this process; new ones found in a shared store).
        const stop = journal.watch(() => void look(false));
        const timer = clock.setTimeout(() => void look(true), within);
      });
    });
  }
}

function rangeOf(times: Times | undefined): Range {
  if (times === undefined) return { atLeast: 1, atMost: Number.POSITIVE_INFINITY };
  const count = (value: unknown, name: string) => {
    if (!(Number.isInteger(value) && (value as number) >= 0)) throw new MockOptionError(`${name} must be a whole number of at least 0, got ${JSON.stringify(value)}`);
    return value as number;
  };
  if (typeof times === "number") return { atLeast: count(times, "times"), atMost: times };
  if (typeof times !== "object" || times === null) throw new MockOptionError(`times is a number or { atLeast, atMost }, got ${JSON.stringify(times)}`);
  const unknown = Object.keys(times).find((name) => name !== "atLeast" && name !== "atMost");
  if (unknown !== undefined) throw new MockOptionError(`times.${unknown} is not a bound; times is a number or { atLeast, atMost }`);
  const atLeast = times.atLeast === undefined ? 0 : count(times.atLeast, "times.atLeast");
  const atMost = times.atMost === undefined ? Number.POSITIVE_INFINITY : count(times.atMost, "times.atMost");
  if (atLeast > atMost) throw new MockOptionError(`times.atLeast (${atLeast}) is more than times.atMost (${atMost})`);
  return { atLeast, atMost };
}

function withinOf(within: number | undefined): number {
  if (within === undefined) return 0;
  if (!(typeof within === "number" && Number.isFinite(within) && within >= 0 && within <= MAX_WITHIN_MS)) {
    throw new MockOptionError(`within must be milliseconds from 0 to ${MAX_WITHIN_MS}, got ${JSON.stringify(within)}`);
  }
  return within;
}

/** "exactly once", "at least 2 times", "between 1 and 3 times", "never". */
export function describeTimes({ atLeast, atMost }: Range): string {
  const times = (n: number) => (n === 1 ? "once" : n === 2 ? "twice" : `${n} times`);
  if (atLeast === atMost) return atLeast === 0 ? "never" : `exactly ${times(atLeast)}`;
  if (atMost === Number.POSITIVE_INFINITY) return `at least ${times(atLeast)}`;
  if (atLeast === 0) return `at most ${times(atMost)}`;
  return `between ${atLeast} and ${atMost} times`;
}

function failure(journal: JournalView, filter: CheckedFilter, range: Range, within: number, count: number, operations: ReadonlyMap<string, SpecOperation>): VerificationError {
  const waited = within > 0 ? ` within ${within} ms` : "";
  const expected = range.atMost === 0 ? "never to be received" : `to be received ${describeTimes(range)}`;
  const described = describeFilter(filter, operations);
  // "…, answered 200, to be received": a description in parts closes its last one with a comma.
  const lines = [`Expected ${described}${described.includes(", ") ? "," : ""} ${expected}${waited}; it was received ${count === 1 ? "once" : `${count} times`} (${journal.size === 1 ? "1 request" : `${journal.size} requests`} in the journal${droppedText(journal)}).`];
  if (count > range.atMost) {
    const received = listRequests(journal, filter, operations, 5).requests;
    lines.push("Received:", ...received.map((r) => `  - ${r.method} ${target(r.path, r.query)} → ${r.status}${r.caller ? ` [${r.caller}]` : ""} at ${r.at}`));
    if (count > received.length) lines.push(`  - and ${count - received.length} more`);
    return new VerificationError(lines.join("\n"), count, []);
  }
  const near = describeNearMisses(journal, filter, operations);
  if (near.length === 0) lines.push(journal.size > 0 ? "No near misses: no request of that operation with other values, and no unmatched path near it." : journal.dropped > 0 ? "The journal holds none of its requests now: every one was dropped." : "The journal is empty: no request reached this world.");
  else lines.push("Near misses:", ...near.shown.map((line) => `  - ${line}`), ...(near.length > near.shown.length ? [`  - and ${near.length - near.shown.length} more`] : []));
  return new VerificationError(lines.join("\n"), count, near.shown);
}

/** ", 40 older ones dropped at its bound of 1000", or for the memory every journal shares; "" when none were. */
function droppedText(journal: JournalView): string {
  if (journal.dropped === 0) return "";
  // Below its bound, a journal that dropped some did so for the shared memory (the reason that holds now).
  const why = journal.size < journal.capacity && journal.budget ? `to keep all worlds' journals within ${sizeText(journal.budget.limitBytes)}` : `at its bound of ${journal.capacity}`;
  return `, ${journal.dropped} older ${journal.dropped === 1 ? "one" : "ones"} dropped ${why}`;
}

/** "64 MB" (the budget is set in megabytes), or bytes for a budget made otherwise. */
function sizeText(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return Number.isInteger(mb) ? `${mb} MB` : `${bytes.toLocaleString("en")} bytes`;
}

function target(path: string, query: Record<string, string | string[]>): string {
  const search = new URLSearchParams(Object.entries(query).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => [name, v]))).toString();
  return search === "" ? path : `${path}?${decodeURIComponent(search)}`;
}
