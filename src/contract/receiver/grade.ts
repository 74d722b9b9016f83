// How one answer of a receiver is judged against the provider's rules: what the case wants (the
// delivery taken, or refused by the signature check), what came back, and one line saying so.
// Pure: the answers come from check.ts.
import { deliveryRules, signatureFailureStatus } from "../../../generated/webhook-facts.js";

/** What a case wants of the receiver: take the delivery (a 2xx) or refuse it as the signature rule says. */
export type Want = "accepted" | "rejected";

/** What came back for one delivery. */
export interface Answer {
  status?: number;
  /** Milliseconds from sending to the whole answer (or to giving up). */
  ms: number;
  /** No answer: the network error. */
  error?: string;
  /** No answer within the provider's answer time. */
  timedOut?: boolean;
  /** The start of the answer's body, for the report. */
  body?: string;
}

export interface Grade {
  ok: boolean;
  reason: string;
}

export const ANSWER_LIMIT_MS = deliveryRules.responseTimeoutSeconds * 1000;

const is2xx = (status: number) => status >= 200 && status < 300;
const bodyNote = (answer: Answer) => {
  const text = (answer.body ?? "").replace(/\s+/g, " ").trim();
  return text ? ` (body: ${text.length > 80 ? `${text.slice(0, 80)}…` : text})` : "";
};

export function gradeAnswer(want: Want, answer: Answer): Grade {
  if (answer.timedOut) return { ok: false, reason: `no answer within ${deliveryRules.responseTimeoutSeconds} s; a slower answer counts as a failure` };
  if (answer.error !== undefined || answer.status === undefined) return { ok: false, reason: `no answer: ${answer.error ?? "none"}` };
  const { status, ms } = answer;
  if (status >= 300 && status < 400) return { ok: false, reason: `answered ${status}: redirects are not followed, a 3xx counts as a failure` };
  if (ms > ANSWER_LIMIT_MS) return { ok: false, reason: `answered ${status} after ${ms} ms: slower than ${deliveryRules.responseTimeoutSeconds} s counts as a failure` };
  if (want === "accepted") {
    return is2xx(status) ? { ok: true, reason: `answered ${status}` } : { ok: false, reason: `answered ${status}${bodyNote(answer)}; the provider's rule is a 2xx` };
  }
  if (status === signatureFailureStatus) return { ok: true, reason: `answered ${status}${bodyNote(answer)}` };
  if (is2xx(status)) return { ok: false, reason: `answered ${status}: it took a delivery whose signature check fails; the provider's rule is ${signatureFailureStatus}` };
  return { ok: false, reason: `answered ${status}${bodyNote(answer)}; the provider's rule is ${signatureFailureStatus}` };
}
