// The mock component plugged into Prism's public pipeline (`createInstance(config, { logger, mock })`),
// for every operation of both documents (the read API and the control API). Prism has routed the
// request and validated its parameters, body and security before this runs; its findings arrive as
// `input.validations`. This decides the answer: admission (admission.ts: an injected failure, the
// key, rate limit and permission, scripted faults), the refusals in words (params.ts, body-text.ts), a hand-over to Prism's own
// mocker for a Prefer header, or the operation's answer (mock/operations/).
//
// Prism's mock step is synchronous while some answers are not; the reply (or its promise) travels
// as the output's body and the dispatcher unwraps it. Response validation is off, so Prism never
// reads that body.
import type { IPrismDiagnostic } from "@stoplight/prism-core";
import type { PrismHttpComponents } from "@stoplight/prism-http";
import { describeBodyFailures } from "./body-text.js";
import { failure, refusal, successBody, type Reply } from "../kernel/envelope.js";
import { violation, type Violation } from "../kernel/violations.js";
import type { Admission, Admit } from "./admission.js";
import type { OperationResult, OperationTable } from "../operations/operation.js";
import type { KeylessTable } from "../operations/control/probes.js";
import { statusOf } from "./status.js";
import { checkParams, type Query } from "./params.js";
import { parsePrefer, type PreferConfig } from "./prefer.js";
import type { SpecOperation } from "../kernel/spec.js";
import { errorText, oneLine } from "../kernel/text.js";
import { andThen } from "../kernel/awaitable.js";
import { storeUnavailable } from "./store-unavailable.js";
import type { World } from "../worlds/world.js";

/** What the dispatcher sends through Prism beside the request Prism reads. */
export interface RequestContext {
  /** The query string as sent, without "?". */
  search: string;
  /** The query as Prism received it (names as sent, repeated names as arrays). */
  query: Query;
  /** The Authorization header: one value, or several when it was repeated. */
  authorization: string | string[] | undefined;
  prefer: string | undefined;
  /** The remote address, for the throttle on failed authentication. */
  client?: string;
  /** The JSON body as parsed; `unreadable` says why there is none although bytes were sent. */
  body?: { value: unknown } | { unreadable: "too-large" | "too-deep" | "not-json"; detail: string };
  /** The body's length in bytes (the edge reads up to the largest operation's limit; each operation has its own). */
  bodyBytes?: number;
  /** Set here once Prism has routed the request: the operation it matched, for the journal. */
  operationId?: string;
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
  /** Set when a Prefer header hands the answer to Prism's own mocker. */
  /** `today` is the answering world's dataset's: dynamic answers date things around it. */
  prefer?: { operation: SpecOperation; config: PreferConfig; query: Record<string, string | string[] | undefined>; today: string };
}

export interface MockComponentOptions {
  operations: ReadonlyMap<string, SpecOperation>;
  /** What answers each operation, by operationId. */
  table: OperationTable;
  /** The operations that answer without a key (the probes): no admission, no rate limit, no journal. */
  keyless?: KeylessTable;
  /** What every request meets before its answer (admission.ts), shared with the response cache's path. */
  admit: Admit;
  /** Context of the request Prism is handling (set by the dispatcher just before it calls Prism). */
  context: (request: object) => RequestContext;
  /** Called with one line when an operation fails (never with a key). */
  onInternalError: (line: string) => void;
}

type MockComponent = PrismHttpComponents["mock"];
type MockOutput = ReturnType<ReturnType<MockComponent>>;
type Diagnostics = readonly IPrismDiagnostic[];

/** The control API's answers describe state that changes without a dataset version: never stored. */
const NOT_STORED = { "Cache-Control": "no-store" };

export function createMockComponent(options: MockComponentOptions): MockComponent {
  const { operations, table, admit } = options;
  return ({ resource, input }) => () => {
    const operation = operations.get(resource.iid ?? "");
    const internal = (error: unknown): MockedReply => {
      // A state store out of reach is no fault of the mock's: the 503 names it, nothing was changed.
      const unavailable = storeUnavailable(error);
      if (unavailable) return unavailable;
      options.onInternalError(`hr-mock: internal error in ${operation?.operationId}: ${oneLine(errorText(error))}`);
      return failure(500, `Internal error: the mock failed while answering ${operation?.operationId}; its log has the cause.`);
    };
    let reply: MockedReply | Promise<MockedReply>;
    try {
      reply = operation ? answer(operation, input.data, input.validations) : failure(500, "Internal error: Prism routed to an operation the mock does not know.");
      if (reply instanceof Promise) reply = reply.catch(internal);
    } catch (error) {
      reply = internal(error);
    }
    return { _tag: "Right", right: { statusCode: 200, body: reply } } as MockOutput;
  };

  function answer(operation: SpecOperation, request: Parameters<MockComponent>[0]["input"]["data"], validations: Diagnostics): MockedReply | Promise<MockedReply> {
    const context = options.context(request);
    context.operationId = operation.operationId;
    if (operation.operator) return answerKeyless(operation, request, validations, context);
    // Admitted already on the response cache's path (a cached answer gone stale under it).
    return andThen(context.admitted ?? admit(operation, context), (admitted): MockedReply | Promise<MockedReply> => {
      if (!admitted.ok) return admitted.reply;
      const reply = answerAdmitted(operation, request, validations, context, admitted);
      const { holdMs } = admitted;
      if (!holdMs) return reply;
      return andThen(reply, (r) => ({ ...r, holdMs }));
    });
  }

  /** An operation about the replica itself: its parameters checked as any other's, then answered without a key. */
  function answerKeyless(operation: SpecOperation, request: Parameters<MockComponent>[0]["input"]["data"], validations: Diagnostics, context: RequestContext): MockedReply {
    const headers = { ...NOT_STORED };
    const checked = checkParams(operation, validations, context.search, context.query, pathParamsOf(operation, request.url.path));
    if (!checked.ok) return { ...refusal(400, checked.violations, headers), operator: true };
    const keyless = options.keyless?.[operation.operationId];
    if (!keyless) return { ...failure(404, `Not found: this mock does not answer ${operation.operationId} here (hr-mock serve and startMock do).`, headers), operator: true };
    const done = keyless();
    if (!done.ok) return { ...failure(statusOf(done.kind), done.message, headers), operator: true };
    return { status: successStatus(operation), body: successBody(done.data), headers, operator: true };
  }

  function answerAdmitted(
    operation: SpecOperation,
    request: Parameters<MockComponent>[0]["input"]["data"],
    validations: Diagnostics,
    context: RequestContext,
    admitted: Admission & { ok: true },
  ): MockedReply | Promise<MockedReply> {
    const read = operation.api === "read";
    const { apiKey } = admitted;
    const caller = apiKey.label;
    const headers = read ? admitted.rateHeaders : { ...admitted.rateHeaders, ...NOT_STORED };
    const refuse = (status: number, violations: readonly Violation[], extra?: Record<string, string | number>): MockedReply => ({ ...refusal(status, violations, { ...headers, ...extra }), caller });
    const pathParams = pathParamsOf(operation, request.url.path);

    // Prefer with code, example or dynamic hands the answer to Prism's mocker; other preferences
    // (return=minimal, an empty header) leave it to the operation, as Prism ignores what it does not know.
    if (context.prefer !== undefined && context.prefer !== "") {
      const preference = parsePrefer(context.prefer);
      if (!preference.ok) return refuse(400, [violation("header", `Invalid parameter Prefer (header): ${preference.message}; use code=<status>, example=<name> or dynamic=true.`, "Prefer")]);
      const { code, exampleKey, dynamic } = preference.config;
      if (code !== undefined || exampleKey !== undefined || dynamic !== undefined) {
        const checked = checkParams(operation, validations, context.search, context.query, pathParams);
        if (!checked.ok) return refuse(400, checked.violations);
        return { status: 0, body: "", headers, caller, prefer: { operation, config: preference.config, query: checked.query, today: apiKey.world.dataset.today } };
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
function successStatus(operation: SpecOperation): number {
  const code = operation.statuses.find((s) => /^2\d\d$/.test(s));
  return code === undefined ? 200 : Number(code);
}

/** The path template's parameters, percent-decoded, as Prism's router matched them. */
export function pathParamsOf(operation: SpecOperation, path: string): Record<string, string> {
  if (operation.pathParams.length === 0) return {};
  const template = operation.path.split("/");
  const given = path.split("/");
  const params: Record<string, string> = {};
  template.forEach((fragment, i) => {
    const name = /^\{(.+)\}$/.exec(fragment)?.[1];
    if (name !== undefined) params[name] = decodeFragment(given[i] ?? "");
  });
  return params;
}

function decodeFragment(fragment: string): string {
  if (!fragment.includes("%")) return fragment;
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}
