// One cause behind many failures, said once: pure functions of what a run saw, each giving the
// sentence a report prints as its HINT, or undefined when no single cause explains most failures.
// A run against the wrong URL, or with the wrong secret, fails nearly every check for that one
// reason; listing the failures alone leaves the reader to find it.
import { signatureFailureStatus } from "../../generated/webhook-facts.js";
import { envelopeOutcome, type Exchange } from "./exchange.js";

/** "Most": more than half, and at least two, so one odd answer is no pattern. */
export const most = (part: number, whole: number) => part >= 2 && part * 2 > whole;

/** Correctly signed deliveries (`signed`) of which `refused` were answered as a failed signature check is. */
export function wrongSecretHint(refused: number, signed: number, flag = "--secret"): string | undefined {
  if (!most(refused, signed)) return undefined;
  return `${refused} of ${signed} correctly signed deliveries were refused with ${signatureFailureStatus}, as a failed signature check is: the ${flag} given is probably not the receiver's signing secret (the one it verifies with)`;
}

/** The API suite's answers: most not JSON, or most JSON without the service's envelope, say the base URL is not the API. */
export function wrongApiHint(exchanges: readonly Exchange[], flag = "--base-url"): string | undefined {
  const answered = exchanges.filter((e) => e.status !== undefined);
  const notJson = answered.filter((e) => e.body === undefined);
  if (most(notJson.length, answered.length)) {
    const type = commonest(notJson.map((e) => (e.headers["content-type"] ?? "").split(";")[0].trim() || "no content-type"));
    return `${notJson.length} of ${answered.length} answers were not JSON (${type}): ${flag} probably points at a web page, such as a frontend or the docs, not at the API; it must be the address the paths /v1/… are appended to`;
  }
  const bare = answered.filter((e) => e.body !== undefined && envelopeOutcome(e.body) === undefined);
  if (most(bare.length, answered.length)) {
    return `${bare.length} of ${answered.length} answers were JSON without the service's envelope (no boolean isSuccessful): ${flag} probably points at another API`;
  }
  return undefined;
}

function commonest(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}
