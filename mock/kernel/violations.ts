// What a refused request broke, as data: the findings an error answer names (a parameter, the
// body, a header, a permission), each with the sentence the answer's message is made of. They are
// decided once, where the pipeline checks the request (params.ts, body checks, the gate), travel
// with the answer, and the journal keeps them, so a test reads them without parsing messages.
import type { components } from "../../generated/control-api.js";

/** A finding as the control document describes it: its kind, what is at fault (PageSize, events[0], Authorization, a permission), the sentence. */
export type Violation = components["schemas"]["Violation"];
export type ViolationKind = Violation["kind"];

/** A finding; `name` left out when nothing narrower than the kind is at fault (a body that is not JSON). */
export function violation(kind: ViolationKind, message: string, name?: string): Violation {
  return name === undefined ? { kind, message } : { kind, name, message };
}

/** The error answer's message: its findings' sentences, in order. */
export function messageOf(violations: readonly Violation[]): string {
  return violations.map((v) => v.message).join(" ");
}
