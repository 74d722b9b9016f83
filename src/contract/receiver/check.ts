// checkReceiver: sends a webhook receiver the cases' deliveries one after another and grades every
// answer against the provider's rules. A receiver is reached by URL (a fetch) or in process (its
// fetch-style handler, no server); both go through the one exchange below, with an injected fetch
// and clock for tests.
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { signatureFailureStatus } from "../../../generated/webhook-facts.js";
import { wrongSecretHint } from "../hints.js";
import { describeNetworkError, realClock, Unreachable, type Clock } from "../network.js";
import { redactUrl } from "../report.js";
import { deliveryCases, type CaseKit, type DeliveryCase } from "./cases.js";
import { deliver, type Delivery } from "./delivery.js";
import { createRecords, readEventsDocument, type EventsDocument } from "./events.js";
import { ANSWER_LIMIT_MS, gradeAnswer, type Answer } from "./grade.js";

/** A fetch-style request handler: Hono's app.fetch, a Next.js route handler, a Worker's, Deno's or Bun's fetch. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

export type ReceiverTarget = { url: string } | { handler: FetchHandler };

export interface ReceiverCheckOptions {
  /** The endpoint's signing secret, the one the receiver verifies with. */
  secret: string;
  /** For the url target; default the global fetch. */
  fetch?: typeof fetch;
  clock?: Clock;
  /** Event and delivery ids; default crypto.randomUUID. */
  newId?: () => string;
  /** The bundled AsyncAPI document; default generated/asyncapi.json. */
  asyncapiPath?: string;
  /** Called as each case ends (the CLI does not use it; a long run may). */
  onCase?: (result: ReceiverCaseResult) => void;
}

export interface ReceiverCaseResult {
  name: string;
  /** "information" for cases beyond the provider's document: they never fail the check. */
  kind: "rule" | "information";
  /** The rule the case holds the receiver to, with its section of service-api.md. */
  rule: string;
  ok: boolean;
  /** The deciding answer's status; undefined when nothing came back. */
  status: number | undefined;
  /** The deciding answer's time in milliseconds. */
  ms: number;
  /** What came back, in one line. */
  reason: string;
}

export interface ReceiverReport {
  /** True when every rule case passed (information cases do not count). */
  ok: boolean;
  /** The URL checked (without any user name or password in it), or "in-process handler". */
  target: string;
  cases: ReceiverCaseResult[];
  durationMs: number;
  /** One cause behind most failures, when there is one (most correctly signed deliveries refused: the secret). */
  hint?: string;
}

export const BUNDLED_ASYNCAPI = fileURLToPath(new URL("../../../generated/asyncapi.json", import.meta.url));

export const MARGIN_CASE = "answer time margin";

export async function checkReceiver(target: ReceiverTarget, options: ReceiverCheckOptions): Promise<ReceiverReport> {
  if (typeof options?.secret !== "string" || options.secret === "") throw new TypeError("checkReceiver needs the receiver's signing secret: { secret }");
  const doc = readEventsDocument(JSON.parse(fs.readFileSync(options.asyncapiPath ?? BUNDLED_ASYNCAPI, "utf8")));
  const clock = options.clock ?? realClock;
  const newId = options.newId ?? (() => crypto.randomUUID());
  const send = transport(target, options.fetch, doc);
  const started = clock.now();
  const results: ReceiverCaseResult[] = [];
  let answered = false;
  // Correctly signed deliveries the rules say to take, and how many were refused as a bad signature is.
  const signed = { cases: 0, refused: 0 };

  for (const testCase of deliveryCases(doc)) {
    const kit = caseKit(doc, options.secret, clock.now(), newId);
    let deciding: { answer: Answer; label?: string } | undefined;
    let grade = { ok: true, reason: "" };
    for (const { delivery, label } of await testCase.send(kit)) {
      const answer = await exchange(send, delivery, clock);
      // Nothing has ever answered at this URL: it is wrong or down, which says nothing of the rules.
      if (!answered && "url" in target && answer.error !== undefined && !answer.timedOut) throw new Unreachable(target.url, answer.error);
      answered = true;
      deciding = { answer, label };
      grade = gradeAnswer(testCase.want, answer);
      if (!grade.ok) break;
    }
    const result = resultOf(testCase, deciding, grade);
    if (testCase.kind === "rule" && testCase.want === "accepted") {
      signed.cases++;
      if (!grade.ok && deciding?.answer.status === signatureFailureStatus) signed.refused++;
    }
    results.push(result);
    options.onCase?.(result);
  }
  results.push(marginCase(results));
  const hint = wrongSecretHint(signed.refused, signed.cases);
  return {
    ok: results.every((r) => r.kind === "information" || r.ok),
    target: "url" in target ? redactUrl(target.url) : "in-process handler",
    cases: results,
    durationMs: clock.now() - started,
    ...(hint ? { hint } : {}),
  };
}

function caseKit(doc: EventsDocument, secret: string, nowMs: number, newId: () => string): CaseKit {
  const now = Math.floor(nowMs / 1000);
  return {
    doc,
    secret,
    // Any other key gives another digest; the suffix only makes it plainly not the endpoint's.
    otherSecret: `${secret}_not_this_endpoint`,
    nowMs,
    now,
    newId,
    records: createRecords(doc, newId),
    deliver: (event, sign = {}) => deliver(event, newId(), { secret: sign.secret ?? secret, timestamp: sign.timestamp ?? now }),
  };
}

function resultOf(testCase: DeliveryCase, deciding: { answer: Answer; label?: string } | undefined, grade: { ok: boolean; reason: string }): ReceiverCaseResult {
  const where = deciding?.label && !grade.ok ? `${deciding.label}: ` : "";
  const information = testCase.kind === "information";
  return {
    name: testCase.name,
    kind: testCase.kind,
    rule: testCase.rule,
    // Information is reported, never failed: the reason says whether the receiver did what is usual.
    ok: information || grade.ok,
    status: deciding?.answer.status,
    ms: deciding?.answer.ms ?? 0,
    reason: information && !grade.ok ? `information only: ${grade.reason}` : `${where}${grade.reason}`,
  };
}

/** How much of the answer time the slowest accepted delivery used (information: the rule is the limit itself). */
function marginCase(results: readonly ReceiverCaseResult[]): ReceiverCaseResult {
  const accepted = results.filter((r) => r.status !== undefined && r.status >= 200 && r.status < 300);
  const slowest = accepted.reduce<ReceiverCaseResult | undefined>((worst, r) => (worst === undefined || r.ms > worst.ms ? r : worst), undefined);
  const limit = ANSWER_LIMIT_MS;
  return {
    name: MARGIN_CASE,
    kind: "information",
    rule: `not a rule of its own: the provider allows ${limit / 1000} s for an answer (6.5.1); this is how much of it the slowest 2xx answer used`,
    ok: true,
    status: slowest?.status,
    ms: slowest?.ms ?? 0,
    reason: slowest ? `slowest 2xx answer ${slowest.ms} ms (${slowest.name}), ${limit - slowest.ms} ms inside the limit` : "no 2xx answer to measure",
  };
}

type Send = (request: Request) => Promise<Response>;

function transport(target: ReceiverTarget, doFetch: typeof fetch | undefined, doc: EventsDocument): Send & { url: string } {
  if ("handler" in target && typeof target.handler === "function") {
    const handler = target.handler;
    return Object.assign(async (request: Request) => handler(request), { url: doc.endpointUrl });
  }
  if ("url" in target && typeof target.url === "string") {
    const fetcher = doFetch ?? globalThis.fetch;
    return Object.assign((request: Request) => fetcher(request), { url: target.url });
  }
  throw new TypeError("checkReceiver needs { url } or { handler }");
}

/** One delivery and its answer: POST, redirects not followed, given up after the provider's answer time. */
async function exchange(send: Send & { url: string }, delivery: Delivery, clock: Clock): Promise<Answer> {
  const controller = new AbortController();
  const request = new Request(send.url, { method: "POST", headers: delivery.headers, body: delivery.body, redirect: "manual", signal: controller.signal });
  const started = clock.now();
  const deadline = clock.sleep(ANSWER_LIMIT_MS, controller.signal).then(() => undefined);
  try {
    const answer = await Promise.race([
      Promise.resolve()
        .then(() => send(request))
        .then(async (response) => ({ status: response.status, body: (await response.text()).slice(0, 500) })),
      deadline,
    ]);
    if (answer === undefined) return { ms: ANSWER_LIMIT_MS, timedOut: true };
    return { ...answer, ms: clock.now() - started };
  } catch (error) {
    return { ms: clock.now() - started, error: describeNetworkError(error) };
  } finally {
    // Ends the deadline's timer and any request still under way.
    controller.abort();
  }
}
