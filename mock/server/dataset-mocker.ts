// The mock component plugged into Prism's public pipeline (`createInstance(config, { logger, mock })`).
// Prism has routed the request and validated its parameters and security before this runs; its
// findings arrive as `input.validations`. This decides the answer: an injected failure, the key,
// rate limit and permission (gate.ts), the parameter refusals in words (params.ts), a hand-over to
// Prism's own mocker for a Prefer header, or the resource handler's answer from the dataset.
//
// Prism's mock step is synchronous while some answers are not; the reply (or its promise) travels
// as the output's body and the dispatcher unwraps it. Response validation is off, so Prism never
// reads that body.
import type { PrismHttpComponents } from "@stoplight/prism-http";
import type { Dataset } from "../data/dataset.js";
import type { ResourceHandlers } from "../resources/contract.js";
import { failure, failureBody, successBody, type Reply } from "./envelope.js";
import type { Gate } from "./gate.js";
import { checkParams, type Query } from "./params.js";
import { parsePrefer, type PreferConfig } from "./prefer.js";
import type { SpecOperation } from "./spec.js";
import { errorText, oneLine } from "./text.js";

/** What the dispatcher sends through Prism beside the request Prism reads. */
export interface RequestContext {
  /** The query string as sent, without "?". */
  search: string;
  /** The query as Prism received it (names as sent, repeated names as arrays). */
  query: Query;
  /** The Authorization header: one value, or several when it was repeated. */
  authorization: string | string[] | undefined;
  prefer: string | undefined;
}

export interface MockedReply extends Reply {
  /** A label for the request log, never a key. */
  caller?: string;
  /** Set when the answer depends only on the organisation, the URL and the data: the cache may keep it. */
  cacheable?: { organizationId: string; permission: string; operationId: string };
  /** Set when a Prefer header hands the answer to Prism's own mocker. */
  prefer?: { operation: SpecOperation; config: PreferConfig; query: Record<string, string | string[] | undefined> };
}

export interface DatasetMockerOptions {
  operations: ReadonlyMap<string, SpecOperation>;
  handlers: ResourceHandlers;
  dataset: () => Dataset;
  gate: Gate;
  /** Probability 0..1 of answering an operation with an injected 503. */
  failRate: number;
  random: () => number;
  /** Context of the request Prism is handling (set by the dispatcher just before it calls Prism). */
  context: (request: object) => RequestContext;
  /** Called with one line when a handler fails (never with a key). */
  onInternalError: (line: string) => void;
}

type MockComponent = PrismHttpComponents["mock"];
type MockOutput = ReturnType<ReturnType<MockComponent>>;

export function createDatasetMocker(options: DatasetMockerOptions): MockComponent {
  const { operations, handlers, gate, failRate, random } = options;
  return ({ resource, input }) => () => {
    const operation = operations.get(resource.iid ?? "");
    let reply: MockedReply;
    try {
      reply = operation ? answer(operation, input.data, input.validations) : failure(500, "Internal error: Prism routed to an operation the mock does not know.");
    } catch (error) {
      options.onInternalError(`hr-mock: internal error in ${operation?.operationId}: ${oneLine(errorText(error))}`);
      reply = failure(500, `Internal error: the mock failed while answering ${operation?.operationId}; its log has the cause.`);
    }
    return { _tag: "Right", right: { statusCode: reply.status, body: reply } } as MockOutput;
  };

  function answer(operation: SpecOperation, request: Parameters<MockComponent>[0]["input"]["data"], validations: Parameters<MockComponent>[0]["input"]["validations"]): MockedReply {
    const context = options.context(request);
    if (failRate > 0 && random() < failRate) return failure(503, "Service unavailable: injected failure (--fail-rate); retry with backoff.");
    const admitted = gate.admit(context.authorization, operation.permission, true);
    if (!admitted.ok) return { ...admitted.reply, caller: admitted.caller };
    const { apiKey, rateHeaders } = admitted;
    const caller = apiKey.label;
    const { query } = context;
    const pathParams = pathParamsOf(operation, request.url.path);

    // Prefer with code, example or dynamic hands the answer to Prism's mocker; other preferences
    // (return=minimal, an empty header) leave it to the dataset, as Prism ignores what it does not know.
    if (context.prefer !== undefined && context.prefer !== "") {
      const preference = parsePrefer(context.prefer);
      if (!preference.ok) return { ...failure(400, `Invalid parameter Prefer (header): ${preference.message}; use code=<status>, example=<name> or dynamic=true.`, rateHeaders), caller };
      const { code, exampleKey, dynamic } = preference.config;
      if (code !== undefined || exampleKey !== undefined || dynamic !== undefined) {
        const checked = checkParams(operation, validations, context.search, query, pathParams);
        if (!checked.ok) return { ...failure(400, checked.message, rateHeaders), caller };
        return { status: 0, body: "", headers: rateHeaders, caller, prefer: { operation, config: preference.config, query: checked.query } };
      }
    }

    const cacheable = { organizationId: apiKey.organizationId, permission: operation.permission, operationId: operation.operationId };
    const checked = checkParams(operation, validations, context.search, query, pathParams);
    if (!checked.ok) return { status: 400, body: failureBody(400, checked.message), headers: rateHeaders, caller, cacheable };
    const handler = handlers[operation.operationId as keyof ResourceHandlers] as ResourceHandlers[keyof ResourceHandlers];
    const result = handler(options.dataset(), { organizationId: apiKey.organizationId, ...checked.typed } as never);
    const body = result.ok ? successBody(result.data) : failureBody(result.status, result.message);
    return { status: result.ok ? 200 : result.status, body, headers: rateHeaders, caller, cacheable };
  }
}

/** The path template's parameters, percent-decoded, as Prism's router matched them. */
function pathParamsOf(operation: SpecOperation, path: string): Record<string, string> {
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
