// generated/prism-operations.json: Prism's public reader (`getHttpOperationsFromSpec`) run over the
// two bundled documents the mock serves, its output kept as JSON (the reader's output is
// de-cycled: it survives JSON). The mock reads it instead of running the reader at every start
// (mock/kernel/spec.ts); check:generated holds it to the documents like every generated file.
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";

export async function renderPrismOperations(files: Record<string, string>): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [name, file] of Object.entries(files)) out[name] = await getHttpOperationsFromSpec(file);
  return out;
}
