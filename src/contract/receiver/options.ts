// Command-line options of hr-contract receiver, parsed without side effects so tests can feed argv.
import { deliveryRules, signatureFailureStatus, webhookHeaders } from "../../../generated/webhook-facts.js";
import { readTargetArgs } from "../options.js";

export interface ReceiverCliOptions {
  url: string;
  secret: string;
  junitFile: string;
  jsonFile?: string;
}

export type ParsedReceiverArgs = { kind: "help" } | { kind: "run"; options: ReceiverCliOptions } | { kind: "error"; message: string };

export const DEFAULT_RECEIVER_JUNIT = "test-artifacts/receiver-junit.xml";

/** The environment variable the secret may come from instead of --secret (the README's receiver reads it too). */
export const SECRET_VARIABLE = "HR_WEBHOOK_SECRET";

export const RECEIVER_USAGE = `Usage: hr-contract receiver --url URL --secret SECRET [--junit FILE] [--json FILE]

Grades a webhook receiver against the receiver rules of the provider's document (sections 5 and
6.5): sends it signed deliveries built from the bundled AsyncAPI document, good and bad, one case
per rule, and reports each answer and its time. No mock is needed; the receiver must be running.

  - a valid delivery of every named event type, webhook.test included: a 2xx within ${deliveryRules.responseTimeoutSeconds} s
  - the body changed after signing, another secret, no ${webhookHeaders.serviceSignature} header, a header that
    does not parse, a t that is no integer, t ${deliveryRules.signatureToleranceSeconds + 1} s old or in the future: ${signatureFailureStatus} each
  - t ${deliveryRules.signatureToleranceSeconds - 1} s old, the same event again with a new ${webhookHeaders.serviceDeliveryId}, one record's
    events out of order, an event type the receiver cannot know: a 2xx each
  - a 3xx answer fails its case: redirects are not followed
  Information only, never a failure: several v1 values (secret rotation), the answer time margin.

Options:
  --url URL            the receiver's endpoint URL, e.g. http://127.0.0.1:3000/hooks (required)
  --secret SECRET      the endpoint's signing secret the receiver verifies with (required; or set
                       ${SECRET_VARIABLE}, which keeps it out of the shell history)
  --junit FILE         where to write JUnit XML, one testcase per case (default
                       ${DEFAULT_RECEIVER_JUNIT}); every run that gets past its
                       options writes it, with one testcase in error naming the cause when nothing
                       could be checked
  --json FILE          also write the result as JSON: { ok, target, cases: [{ name, kind, rule, ok,
                       status, ms, reason }], durationMs }, or { ok: false, error } when nothing
                       could be checked
  -h, --help           show this help

Exit status: 0 every rule case passed; 1 a rule case failed; 2 bad usage (including a report file
that cannot be written) or a URL that does not answer at all.`;

export const RECEIVER_FLAGS: ReadonlySet<string> = new Set(["--url", "--secret", "--junit", "--json"]);

const error = (message: string): ParsedReceiverArgs => ({ kind: "error", message: `${message} (see hr-contract receiver --help)` });

export function parseReceiverArgs(argv: readonly string[], env: Record<string, string | undefined> = {}): ParsedReceiverArgs {
  const target = readTargetArgs(argv, RECEIVER_FLAGS, env, { url: "--url", secret: "--secret", variable: SECRET_VARIABLE });
  if (target.kind !== "read") return target.kind === "help" ? target : error(target.problem);
  const { values, url, secret } = target;
  const junitFile = values.get("--junit") ?? DEFAULT_RECEIVER_JUNIT;
  if (junitFile === "") return error("--junit needs a file name");
  const jsonFile = values.get("--json");
  if (jsonFile === "") return error("--json needs a file name");
  if (jsonFile !== undefined && jsonFile === junitFile) return error("--json and --junit name the same file");
  return { kind: "run", options: { url, secret, junitFile, jsonFile } };
}
