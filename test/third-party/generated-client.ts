// A client generated from a bundled document by a third-party generator (@hey-api/openapi-ts with its
// fetch client), as a team adopting the package would make one, and the TypeScript compiler's verdict
// on it under `strict`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "@hey-api/openapi-ts";
import { errorsByFile, nativeTsc, STRICT_CHECK } from "../../scripts/lib/native-tsc.js";
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
 * in one program so the DOM library is read once, by TypeScript 7 (scripts/lib/native-tsc.ts) in a
 * child process; each folder's diagnostics as lines ("calls.ts:12: Type 'true' does not satisfy…").
 */
export async function compileStrict(dirs: string[]): Promise<Map<string, string[]>> {
  const files = dirs.flatMap((dir) => fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts")).map((file) => path.join(dir, file)));
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "hr-strict-"));
  // skipLibCheck (in STRICT_CHECK): every generated file is .ts and checked.
  const compilerOptions = {
    ...STRICT_CHECK,
    lib: ["es2022", "dom", "dom.iterable"],
  };
  try {
    fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files }));
    const { output } = await nativeTsc(["-p", project], project);
    const byDir = new Map(dirs.map((dir) => [dir, [] as string[]]));
    for (const [file, errors] of errorsByFile(output)) {
      const absolute = file === "(no file)" ? undefined : path.resolve(project, file);
      const dir = absolute && dirs.find((candidate) => absolute.startsWith(candidate + path.sep));
      for (const error of errors) {
        // "file(line,col): error TS1360: message" and its indented lines: "file:line: message".
        const [, line, message] = /^[^\n]*?\((\d+),\d+\): error TS\d+: ([\s\S]*)$/.exec(error) ?? [];
        const text = line && dir ? `${path.relative(dir, absolute)}:${line}: ${message}` : error;
        // A diagnostic outside every folder (the compiler options, a library) belongs to all of them.
        for (const [key, lines] of byDir) if (!dir || key === dir) lines.push(text);
      }
    }
    return byDir;
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
}
