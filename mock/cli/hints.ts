// The command line's hints: outcomes that fail one after another for the same cause say that cause
// once, rather than leave it to be read off a column of identical lines. hr-mock receive: deliveries
// rejected for a secret it does not hold, or for clocks apart. hr-mock serve's delivery log: an
// endpoint that refuses every delivery as a failed signature check is refused, or where nothing
// listens. A success ends the run of failures.
import { signatureFailureStatus } from "../../generated/webhook-facts.js";
import type { AttemptRecord } from "../webhooks/delivery-log.js";

/** Failures in a row, for one cause, before the hint is said. */
export const HINT_AFTER = 3;

export interface Cause {
  key: string;
  hint(count: number): string;
}

/** Feeds one stream's outcomes; gives a cause's hint the first time it fails HINT_AFTER times in a row, once per cause. */
export function createStreakHints<T>(classify: (outcome: T) => Cause | undefined): (outcome: T) => string | undefined {
  let streak: { key: string; count: number } | undefined;
  const said = new Set<string>();
  return (outcome) => {
    const cause = classify(outcome);
    if (!cause) {
      streak = undefined;
      return undefined;
    }
    streak = streak?.key === cause.key ? { key: cause.key, count: streak.count + 1 } : { key: cause.key, count: 1 };
    if (streak.count < HINT_AFTER || said.has(cause.key)) return undefined;
    said.add(cause.key);
    return cause.hint(streak.count);
  };
}

const WRONG_SECRET: Cause = {
  key: "secret",
  hint: (n) => `hint: the last ${n} deliveries were signed with a secret this receiver does not hold (no_matching_signature): --secret is probably not the endpoint's signing secret (hr-mock serve --webhook-url prints it once, at start; while rotating, give the old and the new one, --secret twice)`,
};
const CLOCKS_APART: Cause = {
  key: "clock",
  hint: (n) => `hint: the last ${n} deliveries were signed at a time this receiver refuses (timestamp_too_old, timestamp_in_future): the sender's clock and this machine's are probably apart by more than --tolerance`,
};

/** hr-mock receive: each delivery's outcome, "verified" or the rejection's reason. */
export function createRejectionHints(): (outcome: string) => string | undefined {
  return createStreakHints((reason: string) =>
    reason === "no_matching_signature" ? WRONG_SECRET : reason === "timestamp_too_old" || reason === "timestamp_in_future" ? CLOCKS_APART : undefined,
  );
}

/** hr-mock serve: each delivery attempt, per endpoint URL. */
export function createDeliveryHints(): (url: string, attempt: Pick<AttemptRecord, "outcome" | "status" | "error">) => string | undefined {
  const byEndpoint = new Map<string, (attempt: Pick<AttemptRecord, "outcome" | "status" | "error">) => string | undefined>();
  return (url, attempt) => {
    let hints = byEndpoint.get(url);
    if (!hints) {
      hints = createStreakHints((a: Pick<AttemptRecord, "outcome" | "status" | "error">): Cause | undefined => {
        if (a.outcome === "succeeded") return undefined;
        if (a.status === signatureFailureStatus) {
          return { key: "signature", hint: (n) => `hint: ${url} answered the last ${n} deliveries with ${signatureFailureStatus}, as a receiver refuses a signature it cannot verify: it probably verifies with another secret than this endpoint's (the signing secret printed when the endpoint was made)` };
        }
        const code = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH)\b/.exec(a.error ?? "")?.[1];
        if (code) return { key: code, hint: (n) => `hint: the last ${n} deliveries to ${url} found nothing listening (${code}): start the receiver there, or give the endpoint its address` };
        return undefined;
      });
      byEndpoint.set(url, hints);
    }
    return hints(attempt);
  };
}
