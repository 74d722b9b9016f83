// The named examples of the read API's responses, as the tests of `Prefer: example=<name>` read them.
import { deref, operationsOf } from "../../scripts/lib/spec-document.js";

export interface NamedExample {
  name: string;
  /** The response code that holds it, as the spec writes it ("200", "5XX"). */
  code: string;
  value: any;
}

/** The named examples of the GET operation whose path template is `path`, or undefined when there is none. */
export function examplesAt(openapi: any, path: string): NamedExample[] | undefined {
  const operation = operationsOf(openapi).find(([method, template]) => method === "get" && template === path)?.[2];
  if (!operation) return undefined;
  return Object.entries<any>(operation.responses).flatMap(([code, response]) =>
    Object.entries<any>(deref(openapi, response).content?.["application/json"]?.examples ?? {}).map(([name, example]) => ({ name, code, value: example.value })),
  );
}
