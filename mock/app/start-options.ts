// startMock's options beyond the request path's (options.ts): where to listen, keys, data, state,
// webhooks, CORS and connection bounds, checked once where they enter; each mistake is one sentence
// in a MockOptionError.
import type { DataFile } from "../data/data-file.js";
import { DEFAULT_HOST, DEFAULT_PORT } from "../kernel/limits.js";
import { MockOptionError } from "../kernel/option-error.js";
import { LOG_FORMATS, logFormatOf, type LogFormat } from "../kernel/operator-log.js";
import type { KeySpec } from "../keys/demo-keys.js";
import type { MockWebhookOptions } from "../webhooks/index.js";
import { AUTH_THROTTLE } from "../worlds/auth-throttle.js";
import { defaultConnectionLimits, type ConnectionLimits } from "../edges/node/connections.js";
import { checkPipelineOptions, type PipelineSettings, type PipelineSettingsInput } from "./options.js";

export interface StartMockOptions extends PipelineSettingsInput {
  /**
   * The dataset's records from a data file (generated/data-file.schema.json): its path (YAML or
   * JSON) or its content as an object. What it leaves out is generated from `seed`; a file with a
   * problem throws DataFileError, one line per problem, and nothing starts.
   */
  data?: string | DataFile;
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** More API keys: their definitions, or the path of a JSON keys file. */
  keys?: KeySpec[] | string;
  /** true: one line per request on stdout; a function receives the lines instead. Off by default. */
  log?: boolean | ((line: string) => void);
  /**
   * "text" (default): the request, delivery and lifecycle lines as sentences; "json": each one JSON
   * object on one line (time, level, event, its fields, message), internal errors too.
   */
  logFormat?: LogFormat;
  /** Where internal errors are reported (one line each); default stderr. */
  onError?: (line: string) => void;
  /** The bundled OpenAPI description; default generated/openapi.json of this package. */
  specPath?: string;
  /** The built docs site served under /docs; default site/ of this package. */
  docsDir?: string;
  /** The webhook engine: time scale, strict URLs, duplicates, shuffle (see mock/webhooks/settings.ts). */
  webhooks?: MockWebhookOptions;
  /**
   * Origins (`http://localhost:5173`) whose pages may call the control API under /_mock/. None by
   * default: the read API answers pages of any origin, the control API none.
   */
  corsOrigins?: string[];
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
  /**
   * A directory (or a redis:// URL) where the mock keeps its state and restores it from at start: data changes,
   * webhook endpoints with their secrets, the delivery log and deliveries waiting for a retry.
   * Created 0700 when missing; a state made from other seed, scale or today is refused.
   */
  state?: string;
}

/** The checked options: what the banner shows, plus where to listen. */
export interface Settings extends PipelineSettings {
  port: number;
  host: string;
  corsOrigins: string[];
  /** The --state value (a directory or a redis:// URL), when one is given. */
  state?: string;
  logFormat: LogFormat;
}

/** Every option checked up front, each mistake one sentence. */
export function checkOptions(options: StartMockOptions): Settings {
  const { port = DEFAULT_PORT, host = DEFAULT_HOST, corsOrigins = [] } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new MockOptionError(`port must be a whole number from 0 to 65535, got ${port}`);
  if (typeof host !== "string" || host === "") throw new MockOptionError("host must be a host name or address");
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
  if (!Array.isArray(corsOrigins)) throw new MockOptionError("corsOrigins must be a list of origins such as http://localhost:5173");
  for (const origin of corsOrigins) {
    const problem = originProblem(origin);
    if (problem) throw new MockOptionError(`corsOrigins: ${problem}`);
  }
  const { state } = options;
  if (state !== undefined && (typeof state !== "string" || state.trim() === "")) throw new MockOptionError("state must be the path of a directory");
  const logFormat = options.logFormat === undefined ? "text" : logFormatOf(String(options.logFormat));
  if (logFormat === undefined) throw new MockOptionError(`logFormat must be ${LOG_FORMATS.join(" or ")}, got ${JSON.stringify(String(options.logFormat)).slice(0, 40)}`);
  return { port, host, corsOrigins, state, logFormat, ...checkPipelineOptions(options) };
}

/** Why `origin` is not an origin as a browser sends it (scheme, host, optional port; nothing else). */
export function originProblem(origin: unknown): string | undefined {
  const shown = JSON.stringify(String(origin)).slice(0, 80);
  let url: URL;
  try {
    url = new URL(String(origin));
  } catch {
    return `${shown} is not an origin; write it as a browser sends it, e.g. http://localhost:5173`;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== origin) {
    return `${shown} is not an origin; write scheme, host and port only, as a browser sends it, e.g. http://localhost:5173`;
  }
  return undefined;
}

