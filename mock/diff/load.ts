// Loading the bundled contract (openapi.json and asyncapi.json) from where a version of it lives:
// a git ref of the repository, a packed tarball (`npm pack`), a folder, or this package itself.
// I/O only; every failure is a LoadError with one line naming the source and the cause.
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { parseTarGzip } from "nanotar";
import { staleBundles } from "./bundle-sources.js";
import type { Contract } from "./contract.js";

const run = promisify(execFile);

export class LoadError extends Error {
  override name = "LoadError";
}

const DOCUMENTS = ["openapi.json", "asyncapi.json"] as const;
/** Where the bundles sit in the repository, in a folder of its own, and in the packed package. */
const FOLDER_LAYOUTS = ["", "generated", "dist/generated"];
const REPO_PATH = "generated";

/** This package's own bundled documents: generated/ beside src/ in the repository and in the package (dist/generated). */
const OWN_GENERATED = fileURLToPath(new URL("../../generated/", import.meta.url));

function parse(text: string, source: string, file: string) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new LoadError(`${source}: ${file} is not JSON (${(error as Error).message})`);
  }
}

export async function loadFolder(folder: string, label = `folder ${folder}`): Promise<Contract> {
  for (const layout of FOLDER_LAYOUTS) {
    const dir = path.join(folder, layout);
    const texts = await Promise.all(DOCUMENTS.map((name) => fs.readFile(path.join(dir, name), "utf8").catch(() => undefined)));
    if (texts.every((text): text is string => text !== undefined)) {
      const [openapi, asyncapi] = texts.map((text, index) => parse(text, label, path.join(layout, DOCUMENTS[index])));
      return { label, openapi, asyncapi };
    }
  }
  throw new LoadError(`${label}: no openapi.json and asyncapi.json in it (nor in its generated/ or dist/generated/)`);
}

async function loadTarball(file: string, label = `tarball ${file}`): Promise<Contract> {
  let entries: Awaited<ReturnType<typeof parseTarGzip>>;
  try {
    entries = await parseTarGzip(await fs.readFile(file));
  } catch (error) {
    throw new LoadError(`${label}: not a readable .tgz (${(error as Error).message})`);
  }
  const found = DOCUMENTS.map((name) => {
    // npm pack puts everything under package/; the bundles are in dist/generated/ (or generated/ in older packs).
    const entry = FOLDER_LAYOUTS.slice()
      .reverse()
      .map((layout) => entries.find((item) => item.name === path.posix.join("package", layout, name)))
      .find((item) => item !== undefined);
    if (!entry?.data) throw new LoadError(`${label}: it holds no ${name} (looked in package/dist/generated/, package/generated/, package/)`);
    return parse(new TextDecoder().decode(entry.data), label, entry.name);
  });
  return { label, openapi: found[0], asyncapi: found[1] };
}

async function loadGitRef(ref: string, cwd: string, label = `git ${ref}`): Promise<Contract> {
  const git = async (args: string[]) => {
    try {
      return (await run("git", args, { cwd, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" })).stdout;
    } catch (error) {
      const stderr = String((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split("\n")[0];
      throw new LoadError(`${label}: ${stderr || "git failed"}`);
    }
  };
  const root = (await git(["rev-parse", "--show-toplevel"])).trim();
  const commit = (await git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]).catch(() => "")).trim();
  if (!commit) throw new LoadError(`${label}: not a folder, a .tgz or a commit of the repository at ${root}`);
  const prefix = path.relative(root, cwd).split(path.sep).filter(Boolean).join("/");
  const [openapi, asyncapi] = await Promise.all(
    DOCUMENTS.map(async (name) => {
      const file = [prefix, REPO_PATH, name].filter(Boolean).join("/");
      return parse(await git(["show", `${commit}:${file}`]), label, file);
    }),
  );
  return { label, openapi, asyncapi };
}

/** A contract named on the command line: a file is a packed tarball, a folder holds the bundles, anything else is a git ref. */
export async function loadContract(source: string, cwd: string): Promise<Contract> {
  const full = path.resolve(cwd, source);
  const stat = await fs.stat(full).catch(() => undefined);
  if (stat?.isFile()) return loadTarball(full, `tarball ${source}`);
  if (stat?.isDirectory()) return loadFolder(full, `folder ${source}`);
  return loadGitRef(source, cwd);
}

/**
 * This package's own contract: dist/generated/ once installed; in the repository generated/, refused
 * with one line naming the changed files when older than the documents, so an edit is never missed.
 */
export async function loadOwnContract(generatedDir = OWN_GENERATED): Promise<Contract> {
  if (path.resolve(generatedDir).split(path.sep).includes("dist")) return loadFolder(generatedDir, "this package (installed)");
  const stale = await staleBundles(generatedDir, DOCUMENTS);
  if (stale.length > 0) {
    const changed = [...new Set(stale.flatMap((bundle) => bundle.changed))];
    const shown = changed.slice(0, 3).join(", ") + (changed.length > 3 ? ` and ${changed.length - 3} more` : "");
    const bundles = stale.map((bundle) => bundle.bundle).join(" and ");
    throw new LoadError(`${bundles} ${stale.length > 1 ? "are" : "is"} older than the documents: ${shown} changed since npm run generate wrote ${stale.length > 1 ? "them" : "it"}; run npm run generate, then the diff again`);
  }
  return loadFolder(generatedDir, "working tree");
}
