// What the Pact tests share: swagger-mock-validator over the published openapi.json (the file
// users read, not a copy), and a Pact path's rule in an exported interaction.
import path from "node:path";
import fs from "node:fs";
import os from "node:os";
import { SwaggerMockValidatorFactory } from "@pactflow/swagger-mock-validator";
import { repoRoot } from "../../scripts/lib/spec-document.js";

export const PUBLISHED_OPENAPI = path.join(repoRoot, "generated", "openapi.json");

export interface SmvResult {
  success: boolean;
  errors: { code: string; message: string; mockDetails?: { interactionDescription?: string } }[];
  warnings: { code: string; message: string; mockDetails?: { interactionDescription?: string } }[];
}

/** swagger-mock-validator's verdict on a pact (written to a temporary file, as its CLI reads one). */
export async function swaggerMockValidator(pact: unknown): Promise<SmvResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pact-smv-"));
  try {
    const file = path.join(dir, "pact.json");
    fs.writeFileSync(file, JSON.stringify(pact));
    return (await SwaggerMockValidatorFactory.create().validate({ mockPathOrUrl: file, specPathOrUrl: PUBLISHED_OPENAPI })) as SmvResult;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
