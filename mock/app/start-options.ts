// startMock's options beyond the request path's (options.ts): where to listen, keys, data, state,
// webhooks, CORS and connection bounds, checked once where they enter; each mistake is one sentence
// in a MockOptionError.
import { MockOptionError } from "../kernel/option-error.js";
import type { MockWebhookOptions } from "../webhooks/index.js";
import { AUTH_THROTTLE } from "../worlds/auth-throttle.js";
import { defaultConnectionLimits, type ConnectionLimits } from "../edges/node/connections.js";
import type { PipelineSettings, PipelineSettingsInput } from "./options.js";
import { tableSettings, type TableSettings } from "./settings.js";

export { originProblem } from "./settings.js";

/** startMock's options beyond the settings table's. */
export interface OwnOptions {
  /** Where internal errors are reported (one line each); default stderr. */
  onError?: (line: string) => void;
  /** The built docs site served under /docs; default site/ of this package. */
  docsDir?: string;
  /** The webhook engine: time scale, strict URLs, duplicates, shuffle (see mock/webhooks/settings.ts). */
  webhooks?: MockWebhookOptions;
  /**
   * Connection bounds, each in milliseconds or a count (see mock/edges/node/connections.ts); the
   * defaults keep idle and unread connections from locking clients out.
   */
  connectionLimits?: Partial<ConnectionLimits>;
  /**
   * Past `budget` failed authentications from one address in `windowMs`, its 401s are held
   * `holdMs` (default 20 in 10 s, held 1 s), which slows key guessing; "off" for suites that
   * send many wrong keys on purpose. Valid keys are never held.
   */
  authThrottle?: Partial<typeof AUTH_THROTTLE> | "off";
  /** How lines about `state` name where it came from (hr-mock serve: HR_MOCK_STATE when that variable gave it); default --state. */
  stateNamed?: string;
  /** The password of a `state` that takes one, kept out of the address, and where it came from (for the lines about it). */
  statePassword?: { password: string; from: string };
}

/** The settings table's options (app/settings.ts says what each does, its default and range) and startMock's own. */
export interface StartMockOptions extends PipelineSettingsInput, Partial<Omit<TableSettings, keyof PipelineSettings>>, OwnOptions {}

/** The options resolved at the door: each checked once (settings.ts), defaults applied; the rest of startMock reads these. */
export type Settings = TableSettings & Omit<OwnOptions, "connectionLimits"> & { connectionLimits: Partial<ConnectionLimits> };

/** Every option checked up front, each mistake one sentence. */
export function checkOptions(options: StartMockOptions): Settings {
  const table = tableSettings(options as Readonly<Record<string, unknown>>);
  const limits = defaultConnectionLimits(0);
  for (const [name, value] of Object.entries(options.connectionLimits ?? {})) {
    if (!(name in limits)) throw new MockOptionError(`connectionLimits.${name} is not a limit; the limits are ${Object.keys(limits).join(", ")}`);
    if (!(Number.isInteger(value) && (value as number) >= 1)) throw new MockOptionError(`connectionLimits.${name} must be a whole number of at least 1, got ${String(value)}`);
  }
  const throttle = options.authThrottle;
  if (throttle !== undefined && throttle !== "off") {
    if (typeof throttle !== "object" || throttle === null) throw new MockOptionError('authThrottle must be "off" or an object of budget, windowMs and holdMs');
    for (const [name, value] of Object.entries(throttle)) {
      if (!(name in AUTH_THROTTLE)) throw new MockOptionError(`authThrottle.${name} is not a setting; the settings are ${Object.keys(AUTH_THROTTLE).join(", ")}`);
      if (!(Number.isInteger(value) && (value as number) >= 0)) throw new MockOptionError(`authThrottle.${name} must be a whole number of at least 0, got ${String(value)}`);
    }
  }
  const { statePassword, stateNamed, onError, docsDir, webhooks, connectionLimits = {}, authThrottle } = options;
  return { ...table, statePassword, stateNamed, onError, docsDir, webhooks, connectionLimits, authThrottle };
}
