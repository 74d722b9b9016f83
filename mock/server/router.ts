// Routes a request to one of the spec's operations. It follows Prism's router (prism-http
// router/matchPath): the path splits at "/", each fragment is percent-decoded, literal fragments
// must be equal, a templated fragment ({id}) takes any fragment, and a concrete path wins over a
// templated one. Prism's own `route` re-sorts every operation on every call (about 25 µs here);
// this compiles the same rules once, and a test checks the two agree.
import type { SpecOperation } from "./spec.js";

export type RouteResult =
  | { kind: "operation"; operation: SpecOperation; pathParams: Record<string, string> }
  /** No operation has this path; `suggestion` is one that differs only in letter case or slashes. */
  | { kind: "unknown-path"; suggestion?: string }
  /** The path exists, with other methods (listed in `allow`). */
  | { kind: "wrong-method"; allow: string[] };

type Fragment = { literal: string } | { param: string };

interface CompiledPath {
  template: string;
  fragments: Fragment[];
  templated: boolean;
  /** Operations of this path by upper-case method. */
  byMethod: Map<string, SpecOperation>;
}

export type Router = (method: string, rawPath: string) => RouteResult;

export function compileRouter(operations: readonly SpecOperation[]): Router {
  const byTemplate = new Map<string, CompiledPath>();
  for (const operation of operations) {
    let compiled = byTemplate.get(operation.path);
    if (!compiled) {
      const fragments = operation.path
        .split("/")
        .slice(1)
        .map((text): Fragment => {
          const match = /^\{(.+)\}$/.exec(text);
          return match ? { param: match[1] } : { literal: text };
        });
      compiled = { template: operation.path, fragments, templated: fragments.some((f) => "param" in f), byMethod: new Map() };
      byTemplate.set(operation.path, compiled);
    }
    compiled.byMethod.set(operation.method, operation);
  }
  const all = [...byTemplate.values()];
  // Concrete paths first, so /v1/department/list never reaches /v1/department/{id}.
  const ordered = [...all.filter((p) => !p.templated), ...all.filter((p) => p.templated)];
  const exact = new Map(all.filter((p) => !p.templated).map((p) => [p.template, p]));

  function answer(path: CompiledPath, method: string, pathParams: Record<string, string>): RouteResult {
    const operation = path.byMethod.get(method);
    if (operation) return { kind: "operation", operation, pathParams };
    return { kind: "wrong-method", allow: [...path.byMethod.keys()] };
  }

  return (method, rawPath) => {
    // The common case: a concrete path written plainly.
    const plain = exact.get(rawPath);
    if (plain) return answer(plain, method, {});
    if (!rawPath.startsWith("/")) return { kind: "unknown-path" };
    const requested = rawPath.split("/").slice(1).map(decodeFragment);
    for (const path of ordered) {
      const params = matchFragments(path.fragments, requested);
      if (params) return answer(path, method, params);
    }
    return { kind: "unknown-path", suggestion: nearMiss(ordered, requested) };
  };
}

/**
 * The path a caller most likely meant when theirs differs only in letter case, a trailing slash or
 * doubled slashes (/V1/LeaveRequest/list/ for /v1/leaverequest/list). Only for the 404's message:
 * routing itself stays exact, as in Prism.
 */
function nearMiss(paths: readonly CompiledPath[], requested: readonly string[]): string | undefined {
  const loose = requested.filter((f) => f !== "");
  if (loose.length === 0) return undefined;
  for (const path of paths) {
    if (path.fragments.length !== loose.length) continue;
    const fits = path.fragments.every((f, i) => ("literal" in f ? f.literal.toLowerCase() === loose[i].toLowerCase() : true));
    if (fits) return `/${path.fragments.map((f, i) => ("literal" in f ? f.literal : encodeURIComponent(loose[i]))).join("/")}`;
  }
  return undefined;
}

function matchFragments(fragments: Fragment[], requested: string[]): Record<string, string> | undefined {
  if (fragments.length !== requested.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < fragments.length; i++) {
    const fragment = fragments[i];
    if ("literal" in fragment) {
      if (fragment.literal !== requested[i]) return undefined;
    } else {
      params[fragment.param] = requested[i];
    }
  }
  return params;
}

/** Percent-decodes one fragment; a malformed escape leaves it as written, as Prism does. */
function decodeFragment(fragment: string): string {
  if (!fragment.includes("%")) return fragment;
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}
