// The answer of a request Prism has routed and validated (route.ts), for every operation of both
// documents: admission (admission.ts), the refusals in words (params.ts, body-text.ts), Prism's own
// mocker for a Prefer header (prefer.ts), or the operation's answer (mock/operations/).
import type { IPrismDiagnostic } from "@stoplight/prism-core";
import { describeBodyFailures } from "./body-text.js";
import { failure, internalError, refusal, successBody, type Reply } from "../kernel/envelope.js";
import { violation, type Violation } from "../kernel/violations.js";
import type { Admission, Admit } from "./admission.js";
import type { Identified } from "./gate.js";
import type { OperationResult, OperationTable } from "../operations/operation.js";
import type { KeylessTable } from "../operations/control/probes.js";
import { statusOf } from "./status.js";
import { checkParams, type Query } from "./params.js";
import { parsePrefer, type PreferMocker } from "./prefer.js";
import type { SpecOperation } from "../kernel/spec.js";
import { errorText, oneLine } from "../kernel/text.js";
import { andThen, type Awaitable } from "../kernel/awaitable.js";
import { StoreUnavailableError } from "../kernel/store-unavailable.js";
import type { World } from "../worlds/world.js";
import { pathFragment } from "../../src/query.js";

/** What the answer needs of the request beside Prism's findings: the dispatcher's, never sent through Prism. */
export interface RequestContext {
  /** The path as Prism routed it. */
  path: string;
  /** The query string as sent, without "?". */
  search: string;
  /** The query as Prism received it (names as sent, repeated names as arrays). */
  query: Query;
  /** The key behind the Authorization header, identified once for the request (gate.ts). */
  identified: Identified;
  prefer: string | undefined;
  /** The remote address, for the throttle on failed authentication. */
  client?: string;
  /** The JSON body as parsed; `unreadable` says why there is none although bytes were sent. */
  body?: { value: unknown } | { unreadable: "too-large" | "too-deep" | "not-json"; detail: string };
  /** The body's length in bytes (the edge reads up to the largest operation's limit; each operation has its own). */
  bodyBytes?: number;
  /** The admission the response cache's path already made, when its kept answer went stale meanwhile. */
  admitted?: Admission;
}

export interface MockedReply extends Reply {
  /** A label for the request log, never a key. */
  caller?: string;
  /** An answer about the replica itself (a probe): not journaled, not in the request log, not delayed, its status HTTP's. */
  operator?: boolean;
  /** Set when the answer depends only on the organisation, the URL and the data: the cache may keep it. */
  cacheable?: { world: World; organizationId: string; operationId: string };
}

export interface AnswerOptions {
  /** What answers each operation of both documents, by operationId. */
  table: OperationTable;
  /** The operations that answer without a key (the probes): no admission, no rate limit, no journal. */
  keyless?: KeylessTable;
  /** What every request meets before its answer (admission.ts), shared with the response cache's path. */
  admit: Admit;
  /** Prism's own mocker, for a request whose Prefer header asks for a code, an example or a generated body. */
  prefer: PreferMocker;
  /** Called with one line when something fails inside the mock (never with a key). */
  onInternalError: (line: string) => void;
}

type Diagnostics = readonly IPrismDiagnostic[];
export type Answer = (operation: SpecOperation, validations: Diagnostics, context: RequestContext) => Awaitable<MockedReply>;

/** The control API's answers describe state that changes without a dataset version: never stored. */
const NOT_STORED = { "Cache-Control": "no-store" };

export function createAnswer(options: AnswerOptions): Answer {
  const { table, admit } = options;
  return (operation, validations, context) => {
    const internal = (error: unknown): MockedReply => {
      // A state store out of reach is no fault of the mock's: the dispatcher's 503 names it.
      if (error instanceof StoreUnavailableError) throw error;
      options.onInternalError(`hr-mock: internal error in ${operation.operationId}: ${oneLine(errorText(error))}`);
      return internalError(operation.operationId);
    };
    try {
      const reply = answer(operation, validations, context);
      return reply instanceof Promise ? reply.catch(internal) : reply;
    } catch (error) {
      return internal(error);
    }
  };

  function answer(operation: SpecOperation, validations: Diagnostics, context: RequestContext): Awaitable<MockedReply> {
    if (operation.operator) return answerKeyless(operation, validations, context);
    // Admitted already on the response cache's path (a cached answer gone stale under it).
    return andThen(context.admitted ?? admit(operation, context), (admitted): Awaitable<MockedReply> => {
      if (!admitted.ok) return admitted.reply;
      const reply = answerAdmitted(operation, validations, context, admitted);
      const { holdMs } = admitted;
      if (!holdMs) return reply;
      return andThen(reply, (r) => ({ ...r, holdMs }));
    });
  }

  /** An operation about the replica itself: its parameters checked as any other's, then answered without a key. */
  function answerKeyless(operation: SpecOperation, validations: Diagnostics, context: RequestContext): MockedReply {
    const headers = { ...NOT_STORED };
    const checked = checkParams(operation, validations, context.search, context.query, pathParamsOf(operation, context.path));
    if (!checked.ok) return { ...refusal(400, checked.violations, headers), operator: true };
    const keyless = options.keyless?.[operation.operationId];
    if (!keyless) return { ...failure(404, `Not found: this mock does not answer ${operation.operationId} here (hr-mock serve and startMock do).`, headers), operator: true };
    const done = keyless();
    if (!done.ok) return { ...failure(statusOf(done.kind), done.message, headers), operator: true };
    return { status: successStatus(operation), body: successBody(done.data), headers, operator: true };
  }

  function answerAdmitted(
    operation: SpecOperation,
    validations: Diagnostics,
    context: RequestContext,
    admitted: Admission & { ok: true },
  ): Awaitable<MockedReply> {
    const read = operation.api === "read";
    const { apiKey } = admitted;
    const caller = apiKey.label;
    const headers = read ? admitted.rateHeaders : { ...admitted.rateHeaders, ...NOT_STORED };
    const refuse = (status: number, violations: readonly Violation[], extra?: Record<string, string | number>): MockedReply => ({ ...refusal(status, violations, { ...headers, ...extra }), caller });
    const pathParams = pathParamsOf(operation, context.path);

    // Prefer with code, example or dynamic hands the answer to Prism's mocker; other preferences
    // (return=minimal, an empty header) leave it to the operation, as Prism ignores what it does not know.
    if (context.prefer !== undefined && context.prefer !== "") {
      const preference = parsePrefer(context.prefer);
      if (!preference.ok) return refuse(400, [violation("header", `Invalid parameter Prefer (header): ${preference.message}; use code=<status>, example=<name> or dynamic=true.`, "Prefer")]);
      const { code, exampleKey, dynamic } = preference.config;
      if (code !== undefined || exampleKey !== undefined || dynamic !== undefined) {
        const checked = checkParams(operation, validations, context.search, context.query, pathParams);
        if (!checked.ok) return refuse(400, checked.violations);
        // `today` is the answering world's: dynamic answers date things around it.
        const mocked = options.prefer(operation, { path: context.path, query: checked.query, today: apiKey.world.dataset.today }, preference.config);
        return { ...mocked, headers: { ...mocked.headers, ...headers }, caller };
      }
    }

    const cacheable = read ? { world: apiKey.world, organizationId: apiKey.organizationId, operationId: operation.operationId } : undefined;
    const checked = checkParams(operation, validations, context.search, context.query, pathParams);
    if (!checked.ok) return { ...refuse(400, checked.violations), cacheable };
    let body: unknown;
    if (operation.body) {
      const problem = bodyProblem(operation, context, validations);
      if (problem) return refuse(problem.status, [problem.violation], problem.headers);
      // An optional body left out reaches the operation as undefined.
      body = context.body && "value" in context.body ? context.body.value : undefined;
    }
    const result = table[operation.operationId]({ organizationId: apiKey.organizationId, world: apiKey.world, ...checked.typed, body });
    const toReply = (done: OperationResult): MockedReply => {
      if (!done.ok) {
        // An operation's "invalid" is a rule of the input the spec cannot state (EndDate before StartDate): a violation too.
        const broken = done.kind === "invalid" ? [violation(read ? "parameter" : "body", done.message, done.field)] : undefined;
        return { ...failure(statusOf(done.kind), done.message, headers), violations: broken, caller, cacheable };
      }
      // A bare result (Pact's state values) is answered as it is, for a reader of its top level.
      return { status: successStatus(operation), body: done.bare ? JSON.stringify(done.data) : successBody(done.data), headers, caller, cacheable };
    };
    return andThen(result, toReply);
  }
}

/** Why the body cannot be used, in the order a caller fixes things: size, media type, JSON, schema. */
function bodyProblem(operation: SpecOperation, context: RequestContext, validations: Diagnostics): { status: number; violation: Violation; headers?: Record<string, string> } | undefined {
  const spec = operation.body!;
  const given = context.body;
  const body = (status: number, message: string) => ({ status, violation: violation("body", message) });
  if ((given && "unreadable" in given && given.unreadable === "too-large") || (context.bodyBytes ?? 0) > spec.maxBytes) {
    // Closing stops a client that is still streaming an oversized body.
    return { ...body(413, `Payload too large: the body exceeds ${spec.maxBytes} bytes.`), headers: { Connection: "close" } };
  }
  if (validations.some((d) => d.code === 415)) return { status: 415, violation: violation("header", `Unsupported media type: send the body as ${spec.mediaTypes.join(" or ")} (Content-Type).`, "Content-Type") };
  if (given === undefined) return spec.required ? body(400, `Missing body: send a JSON object (Content-Type: ${spec.mediaTypes[0]}).`) : undefined;
  if ("unreadable" in given && given.unreadable === "too-deep") return body(400, `Invalid body: it is nested more than ${spec.maxDepth} levels deep.`);
  if ("unreadable" in given) return body(400, `Invalid body: it is not valid JSON (${given.detail}).`);
  if (nestedDeeperThan(given.value, spec.maxDepth)) return body(400, `Invalid body: it is nested more than ${spec.maxDepth} levels deep.`);
  const described = describeBodyFailures(spec, given.value, validations);
  return described === undefined ? undefined : { status: 400, violation: described };
}

/** Whether `value` nests objects or arrays more than `limit` levels deep (walked without recursion). */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [at, depth] = stack.pop()!;
    if (typeof at !== "object" || at === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(at)) if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** The operation's success status, as its document lists it (200, 201 or 202). */
const successStatus = (operation: SpecOperation): number => Number(operation.statuses.find((s) => /^2\d\d$/.test(s)) ?? 200);

/** The path template's parameters, percent-decoded, as Prism's router matched them. */
export function pathParamsOf(operation: SpecOperation, path: string): Record<string, string> {
  if (operation.pathParams.length === 0) return {};
  const template = operation.path.split("/");
  const given = path.split("/");
  const params: Record<string, string> = {};
  template.forEach((fragment, i) => {
    const name = /^\{(.+)\}$/.exec(fragment)?.[1];
    if (name !== undefined) params[name] = pathFragment(given[i] ?? "");
  });
  return params;
}
