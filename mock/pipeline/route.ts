// Prism's seam, one for the mock and the proxy: Prism's public pipeline (`createInstance(config,
// components)`) routes a request and validates its parameters (for the proxy, its Bearer credential
// too), once per request; its mock step hands back what Prism found (response validation is off:
// Prism never reads it), and the caller answers (dispatch.ts) or reports (request-check.ts). Nothing
// travels beside the request through Prism. Prism's own mocker, one of the same components, answers a
// `Prefer` request (prefer.ts).
import { createInstance, type IHttpConfig, type PrismHttpComponents } from "@stoplight/prism-http";
import type { IPrismDiagnostic } from "@stoplight/prism-core";
import type { LoadedSpec, SpecOperation } from "../kernel/spec.js";
import { parseQuery } from "../../src/query.js";
import { canonicalCase, decodes, type Query } from "./params.js";

/** Prism checks what the spec says (routing, parameters, a Bearer credential unless the caller turns it off); the findings come back to the caller. */
export const CONFIG: IHttpConfig = {
  isProxy: false,
  mock: { dynamic: false },
  checkSecurity: true,
  validateRequest: true,
  validateResponse: false,
  errors: false,
  upstreamProxy: undefined,
};

/** A request as Prism's router is given it: method in upper case (GET for HEAD), path and query string as sent. */
export interface RoutedInput {
  method: string;
  path: string;
  /** The query string without "?". */
  search: string;
  headers: Record<string, string>;
  /** The body as Prism validates it: the parsed value, or the text when it is not JSON. */
  body?: unknown;
}

export type Routing =
  /** `query`: as Prism received it (names as sent, repeated names as arrays, x-case-insensitive values in the enum's spelling). */
  | { ok: true; operation: SpecOperation; validations: readonly IPrismDiagnostic[]; query: Query }
  /** Prism's refusal: 404 (no operation at the path) or 405 (none with the method), or another error. */
  | { ok: false; error: Error & { status?: number } };

type Found = { operationId: string; validations: readonly IPrismDiagnostic[] };

/** Hands back the operation Prism routed to and its validation findings, answering nothing. */
const handBack: PrismHttpComponents["mock"] = ({ resource, input }) => () =>
  ({ _tag: "Right", right: { statusCode: 200, body: { operationId: resource.iid ?? "", validations: input.validations } satisfies Found } }) as ReturnType<ReturnType<PrismHttpComponents["mock"]>>;

/**
 * Prism's logger, silent: Prism asks it for a child logger on every request (pino builds one even
 * when silent), and logs nothing the mock shows. Every method Prism calls is a no-op; a child is itself.
 */
const silentLogger = (() => {
  const quiet = () => {};
  const logger = { level: "silent", trace: quiet, debug: quiet, info: quiet, success: quiet, warn: quiet, error: quiet, fatal: quiet, child: () => logger };
  return logger as unknown as PrismHttpComponents["logger"];
})();

/**
 * Prism's components: those `given` (a test counts calls through them), Prism's own for the rest.
 * Prism's own are not exported: createInstance writes them into the object it is given.
 */
export function prismComponents(given: Partial<PrismHttpComponents> = {}): PrismHttpComponents {
  const components = { logger: silentLogger, ...given };
  createInstance(CONFIG, components);
  if (!("mock" in components && "route" in components)) throw new Error("Prism's createInstance no longer fills in its components: the mock cannot reach Prism's mocker");
  return components as PrismHttpComponents;
}

/**
 * A router over `spec`'s operations: Prism's routing and validation, once per request. `security`:
 * whether Prism looks for a Bearer credential. The dispatcher's gate identifies the key itself and no
 * answer reads Prism's finding (it names no parameter), so the mock turns it off; the proxy's check reports it.
 */
export function createRouter(spec: LoadedSpec, components = prismComponents(), { security }: { security: boolean } = { security: true }): (input: RoutedInput) => Promise<Routing> {
  const config: IHttpConfig = { ...CONFIG, checkSecurity: security };
  const prism = createInstance(config, { ...components, mock: handBack });
  const shortlist = shortlister(spec.operations);
  return async ({ method, path, search, headers, body }) => {
    const candidates = shortlist(path);
    const query = parseQuery(search);
    canonicalCase(candidates.operations, query);
    const input = { method: method.toLowerCase() as "get", url: { path: decodablePath(path), query: query as Record<string, string | string[]> }, headers, body };
    const result = await prism.request(input, candidates.resources, config)();
    if (result._tag === "Left") return { ok: false, error: result.left };
    const { operationId, validations } = result.right.output.body as Found;
    const operation = spec.byOperationId.get(operationId);
    if (!operation) return { ok: false, error: new Error(`Prism routed to ${operationId}, an operation the mock does not know`) };
    return { ok: true, operation, validations, query };
  };
}

/** Operations Prism routes among, and the same as Prism's resources. */
interface Candidates {
  operations: readonly SpecOperation[];
  resources: SpecOperation["prism"][];
}

/**
 * The operations whose path has as many fragments as the request's and starts with its first two
 * (/v1/leaverequest): Prism routes among them. Prism's router sorts and matches every operation it is
 * given on every call, and one with another number of fragments never matches, so a short list changes
 * nothing but the cost. Any other path gets every operation, so Prism's own 404 decides.
 */
export function shortlister(operations: readonly SpecOperation[]): (path: string) => Candidates {
  const groups = new Map<string, SpecOperation[]>();
  for (const op of operations) {
    const key = groupOf(op.path);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(op);
  }
  const candidates = (list: readonly SpecOperation[]): Candidates => ({ operations: list, resources: list.map((op) => op.prism) });
  const byKey = new Map([...groups].map(([key, list]) => [key, candidates(list)]));
  const every = candidates(operations);
  return (path) => byKey.get(groupOf(path)) ?? every;
}

/** The first two fragments of a path and its number of fragments: "/v1/leaverequest 3". */
function groupOf(path: string): string {
  let count = 0;
  let second = -1;
  for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) {
    count++;
    if (count === 3) second = i;
  }
  return `${second < 0 ? path : path.slice(0, second)} ${count}`;
}

/**
 * The path with each fragment that is not valid percent-encoding escaped as literal text: Prism's
 * router decodes every fragment and throws on a malformed one, where a fragment like %E0%A4%A can
 * only mean those characters (the id they give is then refused by the spec's format, a 400).
 */
export function decodablePath(path: string): string {
  return path.includes("%") ? path.split("/").map((fragment) => (decodes(fragment) ? fragment : fragment.replace(/%/g, "%25"))).join("/") : path;
}

/** Header names in lower case (Prism's security check needs it), one value each; the length of the body Prism is given. */
export function prismHeaders(headers: Record<string, string | string[] | undefined>, bodyLength: number | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  delete out["transfer-encoding"];
  if (bodyLength !== undefined) out["content-length"] = String(bodyLength);
  else delete out["content-length"];
  return out;
}
