// Command-line options of hr-contract (npm run contract in a clone), parsed without side effects so tests can feed argv.
import { rateLimit } from "../../generated/facts.js";
import { FOREIGN_KEYS, OWN_KEYS } from "./ids-file.js";

export interface CliOptions {
  baseUrl: string;
  apiKey: string;
  idsFile?: string;
  junitFile: string;
  /** Where to write what the suite's requests covered of the read API (the coverage report's JSON). */
  coverageFile?: string;
  maxRequests?: number;
  requestsPerSecond: number;
}

export type ParsedArgs = { kind: "help" } | { kind: "run"; options: CliOptions } | { kind: "error"; message: string };

export const DEFAULT_JUNIT = "test-artifacts/contract-junit.xml";
export const DEFAULT_RATE = 4;

export const USAGE = `Usage: hr-contract --base-url URL --api-key KEY [options]
       (in a clone of the repository: npm run contract -- --base-url URL --api-key KEY [options])
       hr-contract receiver ...   grades a webhook receiver instead: see hr-contract receiver --help
       hr-contract pact FILE...   checks Pact files against the contract instead: see hr-contract pact --help

Checks a deployment of the HR service read API (the mock, a staging or the real service) against
the bundled OpenAPI description, with GET requests only, and reports where it departs from the
contract and whether each x-assumption of the package held.

Options:
  --base-url URL       the deployment's base address, e.g. http://127.0.0.1:4010 (required)
  --api-key KEY        an API key holding Leave: View and Employee Management: View (required;
                       or set CONTRACT_API_KEY, which keeps the key out of the shell history)
  --ids FILE           JSON with ids to use when the lists are empty or for a real service (uuids,
                       each optional):
                       { ${OWN_KEYS.map((k) => `"${k}"`).join(", ")},
                         "otherOrganization": { ${FOREIGN_KEYS.map((k) => `"${k}"`).join(", ")} } }
  --junit FILE         where to write JUnit XML (default ${DEFAULT_JUNIT});
                       every run that gets past its options writes it, with one testcase in error
                       naming the cause when nothing could be checked (unreachable URL, first
                       requests that read nothing, a wrong base URL, an unreadable --ids file)
  --coverage FILE      also write what the suite's requests covered of the read API as JSON: every
                       operation with its requests, the statuses declared against those answered and
                       parameters declared against those used (the format the mock's
                       GET /_mock/coverage answers, so CI can keep and compare both sides)
  --max-requests N     stop after N requests, retries included (default: no cap; a run takes about 100)
  --rate N             requests a second, sustained (default ${DEFAULT_RATE}, i.e. ${DEFAULT_RATE * 60} a minute, under the
                       service's ${rateLimit.requests} in ${rateLimit.windowSeconds} s); the suite also waits as ${rateLimit.headers.retryAfter} says on a
                       rate-limit failure (a ${rateLimit.status}; answered with 200, a failure envelope with code
                       "${rateLimit.code}" or, with a code that names no status, with ${rateLimit.headers.retryAfter})
  -h, --help           show this help

Exit status: 0 no contract violation (assumptions that differ and checks that could not run are
reported, not failed); 1 contract violations, the base URL could not be reached, every discovery
request answered 404 (a wrong base URL), or the first requests read nothing (the key refused, server
errors or the rate limit, as the line says); 2 bad usage (including a --junit
file that cannot be written and an --ids file that cannot be read).`;

export const FLAGS: ReadonlySet<string> = new Set(["--base-url", "--api-key", "--ids", "--junit", "--coverage", "--max-requests", "--rate"]);

const error = (message: string): ParsedArgs => ({ kind: "error", message: `${message} (see --help)` });

/**
 * The `--flag value` and `--flag=value` pairs of a command line, each flag once and each one of
 * `flags`; or the one-line problem. Shared by hr-contract and hr-contract receiver.
 */
export function readFlags(argv: readonly string[], flags: ReadonlySet<string>): Map<string, string> | { problem: string } {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf("=");
    const flag = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    if (!flags.has(flag)) return { problem: arg.startsWith("-") ? `unknown option ${flag}` : `unexpected argument ${JSON.stringify(arg)}` };
    let value: string | undefined;
    if (flag !== arg) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      if (value === undefined || (value.startsWith("--") && flags.has(value.split("=")[0]))) return { problem: `${flag} needs a value` };
      i++;
    }
    if (values.has(flag)) return { problem: `${flag} is given twice` };
    values.set(flag, value);
  }
  return values;
}

/** The problem with a URL given for `flag`, or undefined when it is an http or https URL. */
export function urlProblem(flag: string, text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${flag} ${JSON.stringify(text)} is not a URL`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${flag} must be http or https, got ${url.protocol.replace(":", "")}`;
  return undefined;
}

/** What both commands of hr-contract read first: help, the flags, the URL they check and the secret they send or sign with. */
export type TargetArgs = { kind: "help" } | { kind: "problem"; problem: string } | { kind: "read"; values: Map<string, string>; url: string; secret: string };

/** The URL flag (http or https) and the secret, from its flag or else its variable (required, one word), of `argv`. */
export function readTargetArgs(argv: readonly string[], flags: ReadonlySet<string>, env: Record<string, string | undefined>, names: { url: string; secret: string; variable: string }): TargetArgs {
  const problem = (text: string): TargetArgs => ({ kind: "problem", problem: text });
  if (argv.includes("--help") || argv.includes("-h")) return { kind: "help" };
  const values = readFlags(argv, flags);
  if (!(values instanceof Map)) return problem(values.problem);
  const url = values.get(names.url);
  if (!url) return problem(`${names.url} is required`);
  const badUrl = urlProblem(names.url, url);
  if (badUrl) return problem(badUrl);
  const secret = values.get(names.secret) ?? env[names.variable];
  if (!secret || !secret.trim()) return problem(`${names.secret} is required (or set ${names.variable})`);
  if (/\s/.test(secret)) return problem(`${names.secret} must not contain spaces or line breaks`);
  return { kind: "read", values, url, secret };
}

export function parseArgs(argv: readonly string[], env: Record<string, string | undefined> = {}): ParsedArgs {
  const target = readTargetArgs(argv, FLAGS, env, { url: "--base-url", secret: "--api-key", variable: "CONTRACT_API_KEY" });
  if (target.kind !== "read") return target.kind === "help" ? target : error(target.problem);
  const { values, url: baseUrl, secret: apiKey } = target;

  let maxRequests: number | undefined;
  const max = values.get("--max-requests");
  if (max !== undefined) {
    if (!/^\d+$/.test(max) || Number(max) < 1) return error(`--max-requests must be a whole number of at least 1, got ${JSON.stringify(max)}`);
    maxRequests = Number(max);
  }

  let requestsPerSecond = DEFAULT_RATE;
  const rate = values.get("--rate");
  if (rate !== undefined) {
    const n = Number(rate);
    if (!/^\d+(\.\d+)?$/.test(rate) || !(n > 0) || n > 100) return error(`--rate must be a number above 0 and at most 100, got ${JSON.stringify(rate)}`);
    requestsPerSecond = n;
  }

  const idsFile = values.get("--ids");
  if (idsFile === "") return error("--ids needs a file name");
  const junitFile = values.get("--junit") ?? DEFAULT_JUNIT;
  if (junitFile === "") return error("--junit needs a file name");
  const coverageFile = values.get("--coverage");
  if (coverageFile === "") return error("--coverage needs a file name");
  return { kind: "run", options: { baseUrl, apiKey, idsFile, junitFile, coverageFile, maxRequests, requestsPerSecond } };
}
