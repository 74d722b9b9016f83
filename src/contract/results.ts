// The vocabulary of a run: a check ends passed, a violation of the contract, or not checked (with
// the reason); an assumption held, did not hold, or could not be told.

export type CheckOutcome = "passed" | "violation" | "not checked";
export type AssumptionOutcome = "held" | "did not hold" | "could not tell";

export type Area = "connection" | "responses" | "paging" | "filters" | "order" | "details" | "records" | "auth" | "pact";

/** What a pure check function returns: an outcome and one line saying why. */
export interface Finding {
  outcome: CheckOutcome;
  detail: string;
}

/**
 * One rule an answer breaks, where: what a check tells when each problem must stand on its own line
 * (the proxy prints one per violation). `rule` names the rule ("paging", "schema.type"), `pointer`
 * the place in the body (a JSON pointer) or the header.
 */
export interface Problem {
  rule: string;
  pointer: string;
  message: string;
}

export interface CheckResult extends Finding {
  area: Area;
  name: string;
}

export interface Verdict {
  outcome: AssumptionOutcome;
  detail: string;
}

export interface AssumptionResult extends Verdict {
  source: "openapi" | "asyncapi";
  /** "webhooks" for marks only the webhook events use, which a GET-only suite cannot see. */
  scope: "api" | "webhooks";
  pointer: string;
  sentence: string;
}

export const passed = (detail: string): Finding => ({ outcome: "passed", detail });
export const violation = (detail: string): Finding => ({ outcome: "violation", detail });
export const notChecked = (detail: string): Finding => ({ outcome: "not checked", detail });

export const held = (detail: string): Verdict => ({ outcome: "held", detail });
export const didNotHold = (detail: string): Verdict => ({ outcome: "did not hold", detail });
export const couldNotTell = (detail: string): Verdict => ({ outcome: "could not tell", detail });

/** At most `max` examples, then "and N more", so a report line stays one line. */
export function summarize(items: readonly string[], max = 3): string {
  if (items.length <= max) return items.join("; ");
  return `${items.slice(0, max).join("; ")}; and ${items.length - max} more`;
}

/** Findings of several problems: a violation listing them, or a pass with the given text. */
export function fromProblems(problems: readonly string[], passText: string): Finding {
  return problems.length ? violation(summarize(problems)) : passed(passText);
}
