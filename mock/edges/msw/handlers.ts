// The mock as Mock Service Worker 2.x request handlers, in MSW's own shape: one handler per
// operation, its method and path in MSW's form (http.get("http://127.0.0.1:4010/v1/department/:id")),
// in the order MSW matches them (literal paths before templated ones, so /v1/department/list is not
// taken for an id). Each answers through the one request path (a FetchHandler), so a test may
// replace one with server.use(http.get(...)) and every other answers byte for byte as the server.
// Around them: first, paths with %-escapes (MSW decodes a path's parameters and would throw on a
// malformed one, which the request path answers with the envelope); last, whatever no operation
// matches under the base URL (an unknown path's 404, another method's 405, HEAD).
import { http, type HttpHandler } from "msw";
import type { FetchHandler } from "../fetch.js";
import type { Route } from "../../../generated/routes.js";

/** Where the API sits: an origin and a path without a trailing slash ("" at the root). */
export interface HandlerBase {
  origin: string;
  path: string;
}

type MethodHandler = typeof http.get;

export function operationHandlers(routes: readonly Pick<Route, "method" | "path">[], base: HandlerBase, answer: FetchHandler): HttpHandler[] {
  const root = base.origin + base.path;
  const under = new RegExp(`^${escapeRegExp(root)}(?:/|$)`);
  const escaped = new RegExp(`^${escapeRegExp(root)}/[^?#]*%`);
  const resolver = ({ request }: { request: Request }) => answer(request);
  const ordered = [...routes].sort((a, b) => templated(a.path) - templated(b.path));
  return [
    http.all(escaped, resolver),
    ...ordered.map((route) => methodHandler(route.method)(`${root}${route.path.replace(/\{([^}]+)\}/g, ":$1")}`, resolver)),
    http.all(under, resolver),
  ];
}

function methodHandler(method: string): MethodHandler {
  const handler = (http as unknown as Record<string, MethodHandler | undefined>)[method.toLowerCase()];
  if (!handler) throw new Error(`MSW has no handler for the method ${method}`);
  return handler;
}

/** How many segments of a path template are parameters. */
function templated(path: string): number {
  return (path.match(/\{[^}]+\}/g) ?? []).length;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
