// A state directory that cannot be used: one line naming the file and what to do. It is a start
// option's mistake, so `hr-mock serve` prints it as one line and exits non-zero.
import { MockOptionError } from "../kernel/option-error.js";

export class StateError extends MockOptionError {
  override name = "StateError";
}

/** How a line names the state when its caller says nothing else (serve names HR_MOCK_STATE when that gave it). */
export const STATE_FLAG = "--state";

/** The variable that gives a Redis state's password, kept off the command line. */
export const REDIS_PASSWORD_VARIABLE = "HR_MOCK_REDIS_PASSWORD";
