// A client generated from a bundled document by a third-party generator (@hey-api/openapi-ts with its
// fetch client), as a team adopting the package would make one, and the TypeScript compiler's verdict
// on it under `strict`.
import fs from "node:fs";
import path from "node:path";
import { createClient } from "@hey-api/openapi-ts";
import ts from "typescript";
import { consumerSource } from "./consumer-source.js";

/**
 * Generates the client for `document` (the parsed object: a path given as text could be taken for a
 * Hey API registry name) into `outDir`, and writes calls.ts (consumer-source.ts) beside it.
 */
export async function generateClient(document: any, outDir: string, failureOn200: boolean): Promise<void> {
  await createClient({
    input: structuredClone(document),
    // Imports with .js, as Node's ES modules and NodeNext resolution want them.
    output: { path: outDir, module: { extension: ".js" }, tsConfigPath: null },
    logs: { level: "silent", file: false },
    plugins: ["@hey-api/client-fetch", "@hey-api/typescript", "@hey-api/sdk"],
  });
  const operationIds = Object.values<any>(document.paths).flatMap((item) => Object.values<any>(item).map((op) => op.operationId).filter(Boolean));
  fs.writeFileSync(path.join(outDir, "calls.ts"), consumerSource(operationIds, failureOn200));
  // The generated code is ES modules: so its folder says, for the compiler and for Node.
  fs.writeFileSync(path.join(outDir, "package.json"), JSON.stringify({ type: "module" }));
}

/** Type-checks every .ts file under `dir` under `strict` (the generator's code and calls.ts); the diagnostics as lines. */
export function compileStrict(dir: string): string[] {
  const files = fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts")).map((file) => path.join(dir, file));
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [],
    skipLibCheck: false,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : "";
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}
