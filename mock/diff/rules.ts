// The classification rules of the package on top of the differs' own: which way a change cuts for
// the people who build on the contract, and the one-line reason printed with it. Pure functions.
import type { DiffType } from "api-smart-diff";
import type { ChangeKind } from "./contract.js";
import type { Described } from "./describe.js";

/** Who reads what changed: a client (the read API), a receiver (webhooks and events). */
export type Reader = "client" | "receiver";

export interface Verdict {
  kind: ChangeKind;
  why: string;
}

/** Keywords that fix what a value looks like; a reader that relies on the old one breaks when they change. */
const VALUE_SHAPE = new Set(["type", "const", "pattern", "format"]);

/**
 * The package's overrides, where the library's verdict is not what breaks a consumer here:
 * - a changed `type`, `const`, `pattern` or `format` of something the consumer reads: api-smart-diff
 *   reverses its request rule for responses and calls it non-breaking, but a parser of the old
 *   shape misreads it (a signature header in a new format fails every receiver's verification);
 * - a new required field in what the consumer reads: code typed by the generated types (fixtures,
 *   mocks, MSW handlers, test events) no longer compiles without it.
 */
function override(described: Described, action: string): Verdict | undefined {
  if (!described.consumerReads) return undefined;
  if (described.keyword && VALUE_SHAPE.has(described.keyword) && action !== "remove") {
    return { kind: "breaking", why: `the ${described.keyword} changed: code that reads the old one misreads or rejects the value` };
  }
  if (described.keyword === "required" && action === "add") {
    return { kind: "breaking", why: "a new required field: objects built with the old types (fixtures, mocks, test events) lack it" };
  }
  return undefined;
}

const REASONS: Record<Reader, Record<"breaking" | "non-breaking", (d: Described, action: string) => string>> = {
  client: {
    breaking: (d) =>
      d.consumerReads
        ? "a client that parses the old response can fail on the new one"
        : "a call that was valid can now be refused or mean something else",
    "non-breaking": (d) => (d.consumerReads ? "clients that parse the old response still can" : "every call that was valid stays valid"),
  },
  receiver: {
    breaking: (d, action) =>
      d.keyword === "enum" && action === "add"
        ? "a receiver that switches on this value meets one it does not know"
        : "a receiver built on the old event can fail on the new one",
    "non-breaking": () => "a receiver built on the old event still handles the new one",
  },
};

/** Keys that document and carry nothing on the wire; extensions (x-...) are the package's own notes. */
const isDocumentation = (key: unknown): boolean =>
  typeof key === "string" && (/^(example|examples|description|summary|title|externalDocs)$/.test(key) || key.startsWith("x-"));

/** Our verdict for a change an OpenAPI differ found; `key` is the last segment of its path. */
export function classify(type: DiffType, described: Described, action: string, reader: Reader, key?: unknown): Verdict {
  const overridden = override(described, action);
  if (overridden) return overridden;
  if (type === "unclassified" && isDocumentation(key)) return { kind: "info", why: "documentation only" };
  switch (type) {
    case "breaking":
    case "non-breaking":
      return { kind: type, why: REASONS[reader][type](described, action) };
    case "annotation":
      return { kind: "info", why: "documentation only" };
    case "deprecated":
      return { kind: "info", why: "marked deprecated: still works, plan to move off it" };
    default:
      return { kind: "breaking", why: "not classified by the differ: treated as breaking until reviewed" };
  }
}

/** A number that receivers live within: lowering it breaks them, raising it does not. */
function breakingWhenLower(breaking: string, fine: string) {
  return (before: unknown, after: unknown): Verdict => (Number(after) < Number(before) ? { kind: "breaking", why: breaking } : { kind: "non-breaking", why: fine });
}

/** The AsyncAPI delivery's extension fields, which @asyncapi/diff leaves unclassified: what receivers must do differently. */
const EXTENSIONS: Record<string, (before: unknown, after: unknown) => Verdict> = {
  "x-signature-tolerance-seconds": () => ({ kind: "breaking", why: "the signature rule changed: receivers verify with the old tolerance" }),
  "x-response-timeout-seconds": breakingWhenLower("receivers must answer sooner than before or the delivery counts as failed", "receivers have more time to answer"),
  "x-retry-schedule-seconds": () => ({ kind: "non-breaking", why: "the retry schedule changed; each attempt is still a whole delivery" }),
  "x-max-endpoints-per-organisation": breakingWhenLower("fewer endpoints per organisation: registrations that fit may no longer", "more endpoints per organisation are allowed"),
  "x-api-version": () => ({ kind: "breaking", why: "a new apiVersion: receivers that check it meet a value they do not know" }),
};

const INFO_EXTENSIONS = new Set(["x-event-group", "x-event-types-total", "x-not-shown-event-types", "x-permission", "x-transitions"]);

/** Our verdict for an AsyncAPI change @asyncapi/diff found, from its verdict and the path. */
export function classifyAsyncApi(type: string, path: string, before: unknown, after: unknown): Verdict {
  const extension = path.split("/").find((segment) => segment.startsWith("x-"));
  if (extension && EXTENSIONS[extension]) return EXTENSIONS[extension](before, after);
  if (extension && INFO_EXTENSIONS.has(extension)) return { kind: "info", why: "documentation of the delivery, no change on the wire" };
  if (/\/(examples|description|summary|title|externalDocs|tags)(\/|$)/.test(path)) return { kind: "info", why: "documentation only" };
  if (path.startsWith("/info/")) return { kind: "info", why: "the document's own metadata; what changed in it is listed line by line" };
  if (type === "breaking") return { kind: "breaking", why: "a receiver built on the old events can fail" };
  if (type === "non-breaking") return { kind: "non-breaking", why: "a receiver built on the old events is not affected" };
  return { kind: "breaking", why: "not classified by @asyncapi/diff: treated as breaking until reviewed" };
}
