// TypeScript types of the bundled OpenAPI document, by openapi-typescript.
import openapiTS, { astToString } from "openapi-typescript";
import { GENERATED_BANNER } from "./banner.js";
import type { BundledDocument } from "./bundle.js";

export async function renderApiTypes(openapi: BundledDocument): Promise<string> {
  // A deep copy: openapi-typescript annotates the document it reads.
  const ast = await openapiTS(structuredClone(openapi) as any, {
    alphabetize: false,
    // Types describe what the service sends: a defaulted parameter is still optional for callers.
    defaultNonNullable: false,
    rootTypes: false,
  });
  return GENERATED_BANNER + astToString(ast);
}
