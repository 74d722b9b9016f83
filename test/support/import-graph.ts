// The run-time import graph of a TypeScript source file, read with the TypeScript parser: what a
// bundler or a runtime would load from it (type-only imports and exports are erased, so left out).
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export interface ImportSite {
  specifier: string;
  typeOnly: boolean;
  /** import("x") or require("x"): loaded when that code runs, not with the module. */
  dynamic: boolean;
}

/** Every module specifier in a source file, with whether the import is erased at run time. */
export function importsOf(source: string, fileName: string): ImportSite[] {
  const found: ImportSite[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly ?? false, dynamic: false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly, dynamic: false });
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) {
        found.push({ specifier: node.arguments[0].text, typeOnly: false, dynamic: true });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, false));
  return found;
}

export interface ImportGraph {
  /** Modules reached through relative run-time imports, relative to `root`. */
  modules: string[];
  /** Each non-relative specifier (package or built-in) and the modules that import it. */
  bare: Record<string, string[]>;
}

/** The import sites of each file read so far, with the text they were read from: graphs of one run share most of their files. */
const sitesByFile = new Map<string, { source: string; sites: ImportSite[] }>();

function importsOfFile(file: string): ImportSite[] {
  const source = readFileSync(file, "utf8");
  const known = sitesByFile.get(file);
  if (known?.source === source) return known.sites;
  const sites = importsOf(source, file);
  sitesByFile.set(file, { source, sites });
  return sites;
}

/**
 * Follows the relative run-time imports from `entry` (a .ts file; `.js` specifiers name their .ts
 * source); with `dynamic: false`, only what loads with the module (import() calls left out).
 */
export function importGraph(root: string, entry: string, options: { dynamic?: boolean } = {}): ImportGraph {
  const seen = new Set<string>();
  const bare: Record<string, string[]> = {};
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { specifier, typeOnly, dynamic } of importsOfFile(file)) {
      if (typeOnly || (dynamic && options.dynamic === false)) continue;
      if (specifier.startsWith(".")) visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts")));
      else (bare[specifier] ??= []).push(path.relative(root, file));
    }
  };
  visit(path.join(root, entry));
  return { modules: [...seen].map((f) => path.relative(root, f)), bare };
}
