// A state directory that cannot be used: one line naming the file and what to do. It is a start
// option's mistake, so `hr-mock serve` prints it as one line and exits non-zero.
import { MockOptionError } from "../kernel/option-error.js";

export class StateError extends MockOptionError {
  override name = "StateError";
}
