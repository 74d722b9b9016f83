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

/**
 * Type-checks every .ts file under each of `dirs` under `strict` (the generator's code and calls.ts),
 * in one program so the DOM library is read once; each folder's diagnostics as lines.
 */
export function compileStrict(dirs: string[]): Map<string, string[]> {
  const files = dirs.flatMap((dir) => fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts")).map((file) => path.join(dir, file)));
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [],
    // The libraries' own .d.ts files are TypeScript's to check; every generated file is .ts and checked.
    skipLibCheck: true,
  });
  const byDir = new Map(dirs.map((dir) => [dir, [] as string[]]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const dir = dirs.find((candidate) => d.file?.fileName.startsWith(candidate + path.sep));
    const where = d.file ? `${path.relative(dir ?? "", d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : "";
    // A diagnostic outside every folder (the compiler options, a library) belongs to all of them.
    for (const [key, lines] of byDir) if (!dir || key === dir) lines.push(`${where}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
  }
  return byDir;
}
