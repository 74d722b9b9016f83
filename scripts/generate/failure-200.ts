// generated/openapi.failure-200.{json,yaml}: the read API as a service that answers failures with
// HTTP 200 describes it (`hr-mock serve --failure-status 200`). The provider shows no failure
// statuses, so a client generated from openapi.json, whose 200s carry only the success envelope,
// would take such a failure for a success. Here every operation's 200 may carry either its success
// envelope or the envelope its failure responses carry (oneOf, told apart by `isSuccessful`),
// declares the headers those failures bring and shows their examples. Everything else is
// openapi.json as it is.
import type { BundledDocument } from "./bundle.js";

export const FAILURE_200_ASSUMPTION =
  "The provider shows no failure statuses, so a service may answer a failure with HTTP 200 and the failure envelope (hr-mock serve --failure-status 200 does), which isSuccessful false tells apart from a success.";

const INFO_NOTE = [
  "**Variant for a service that answers failures with HTTP 200** (`hr-mock serve --failure-status 200`):",
  "every operation's 200 carries either its success envelope (`isSuccessful` true) or the failure",
  "envelope (`isSuccessful` false), with the headers that failure would bring. Generate clients from",
  "this document when the service may answer failures with 200, and narrow on `isSuccessful`.",
].join("\n");

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** A local `#/...` reference of the document, followed once (components refer to nothing further here). */
function follow(doc: BundledDocument, node: any): any {
  if (!node || typeof node.$ref !== "string") return node;
  if (!node.$ref.startsWith("#/")) throw new Error(`failure-200 variant: only local $refs are followed, got ${node.$ref}`);
  const target = node.$ref
    .slice(2)
    .split("/")
    .map((part: string) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((at: any, part: string) => at?.[part], doc);
  if (target === undefined) throw new Error(`failure-200 variant: ${node.$ref} points at nothing`);
  return target;
}

/** A media type without its single `example` (which may not stand beside `examples`). */
const withoutExample = ({ example: _example, ...media }: any) => media;

const isFailureStatus = (status: string) => /^[45]/.test(status);

/** The distinct JSON schemas (by their $ref, or their text) of an operation's failure responses. */
function failureSchemas(doc: BundledDocument, responses: Record<string, any>): any[] {
  const seen = new Map<string, any>();
  for (const [status, response] of Object.entries(responses)) {
    if (!isFailureStatus(status)) continue;
    const schema = follow(doc, response)?.content?.["application/json"]?.schema;
    if (schema) seen.set(schema.$ref ?? JSON.stringify(schema), schema);
  }
  return [...seen.values()];
}

/**
 * The headers an operation's failures bring, to add to its 200: each by its $ref, or copied inline
 * without `required` where the component requires it (a success does not carry Retry-After).
 */
function failureHeaders(doc: BundledDocument, responses: Record<string, any>, already: Record<string, unknown>): Record<string, any> {
  const headers: Record<string, any> = {};
  for (const [status, response] of Object.entries(responses)) {
    if (!isFailureStatus(status)) continue;
    for (const [name, header] of Object.entries<any>(follow(doc, response)?.headers ?? {})) {
      if (name in already || name in headers) continue;
      const { required, ...optional } = follow(doc, header);
      headers[name] = required ? optional : header;
    }
  }
  return headers;
}

/** A media type's examples as a named map: its `examples`, or its single `example` named `name`. */
function namedExamples(media: any, name: string): Record<string, any> {
  if (media?.examples) return media.examples;
  return media?.example === undefined ? {} : { [name]: { value: media.example } };
}

/**
 * The 200's examples: its own, then each failure response's, named after its status (`failure-404`,
 * or `failure-404-<name>` for a named one), so readers and mocks of this variant see both kinds.
 */
function joinedExamples(doc: BundledDocument, media: any, responses: Record<string, any>): Record<string, any> {
  const examples = { ...namedExamples(media, "success") };
  for (const [status, response] of Object.entries(responses)) {
    if (!isFailureStatus(status)) continue;
    const failure = follow(doc, response)?.content?.["application/json"];
    const own = failure?.examples ? failure.examples : undefined;
    for (const [name, example] of Object.entries<any>(namedExamples(failure, ""))) examples[own ? `failure-${status}-${name}` : `failure-${status}`] = follow(doc, example);
  }
  return examples;
}

export function renderFailure200Variant(openapi: BundledDocument): BundledDocument {
  const doc = structuredClone(openapi);
  doc.info = { ...doc.info, title: `${doc.info.title} (failures answered with HTTP 200)`, description: `${INFO_NOTE}\n\n${doc.info.description ?? ""}`.trimEnd() };
  for (const [route, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const responses = item[method]?.responses;
      if (!responses) continue;
      const ok = follow(doc, responses["200"]);
      const media = ok?.content?.["application/json"];
      const failures = failureSchemas(doc, responses);
      if (!media?.schema || failures.length === 0) throw new Error(`failure-200 variant: ${method.toUpperCase()} ${route} has no JSON 200 or no failure response to join`);
      responses["200"] = {
        ...ok,
        description: `${ok.description.replace(/\.$/, "")}; or, from a service that answers failures with HTTP 200, the failure envelope (isSuccessful false).`,
        "x-assumption": FAILURE_200_ASSUMPTION,
        headers: { ...ok.headers, ...failureHeaders(doc, responses, ok.headers ?? {}) },
        content: { ...ok.content, "application/json": { ...withoutExample(media), schema: { oneOf: [media.schema, ...failures] }, examples: joinedExamples(doc, media, responses) } },
      };
    }
  }
  return doc;
}
