// Bundles the hand-written, split documents into one file each, resolving every $ref
// into components so that Prism, Ajv and the type generator read a single document.
import { bundle, loadConfig } from "@redocly/openapi-core";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export type BundledDocument = Record<string, any>;

export type ApiName = "hr-api" | "hr-events" | "mock-control";

export async function bundleApi(apiName: ApiName): Promise<BundledDocument> {
  return (await bundleApiWithSources(apiName)).document;
}

/** The bundle and the files it was made from (the root and every file a $ref reached), relative to the repository. */
export async function bundleApiWithSources(apiName: ApiName): Promise<{ document: BundledDocument; sources: string[] }> {
  const config = await loadConfig({ configPath: path.join(repoRoot, "redocly.yaml") });
  const api = config.apis[apiName];
  if (!api) throw new Error(`redocly.yaml names no API called ${apiName}`);
  const root = path.resolve(repoRoot, api.root);
  const result = await bundle({ ref: root, config, removeUnusedComponents: false });
  const errors = result.problems.filter((p) => p.severity === "error");
  if (errors.length > 0) {
    const lines = errors.map((p) => `${p.location?.[0]?.source?.absoluteRef ?? root}: ${p.message}`);
    throw new Error(`Bundling ${apiName} failed:\n${lines.join("\n")}`);
  }
  const sources = [...new Set([root, ...result.fileDependencies])].map((file) => path.relative(repoRoot, file).split(path.sep).join("/")).sort();
  return { document: result.bundle.parsed as BundledDocument, sources };
}
