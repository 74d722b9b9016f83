// `/docs`: the docs site built into site/ (npm run docs), served as static files. Paths cannot
// leave the folder; without a built site the answer is a 404 envelope saying how to build it.
import { createReadStream, existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const DEFAULT_DOCS_DIR = fileURLToPath(new URL("../../../site/", import.meta.url));
export const DOCS_PREFIX = "/docs";

/** Whether `dir` holds a built site (its index page); the banner says how to build one when not. */
export function docsBuilt(dir: string): boolean {
  return existsSync(join(dir, "index.html"));
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".yaml": "application/yaml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

export type FailureWriter = (res: ServerResponse, status: number, message: string) => void;

export function createDocsHandler(docsDir: string, writeFailure: FailureWriter) {
  const root = normalize(docsDir.endsWith(sep) ? docsDir : docsDir + sep);

  return async (req: IncomingMessage, res: ServerResponse, rawPath: string): Promise<void> => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      writeFailure(res, 404, `Not found: the docs answer GET only.`);
      return;
    }
    if (!(await isDirectory(root))) {
      writeFailure(res, 404, "Not found: the docs site is not built; run npm run docs, then reload /docs.");
      return;
    }
    // /docs → /docs/ so the site's relative links resolve under /docs/.
    if (rawPath === DOCS_PREFIX) {
      res.writeHead(301, { Location: `${DOCS_PREFIX}/`, "Content-Length": 0 });
      res.end();
      return;
    }
    let relative: string;
    try {
      relative = decodeURIComponent(rawPath.slice(DOCS_PREFIX.length + 1));
    } catch {
      relative = "\0"; // not valid percent-encoding: it names no page
    }
    if (relative === "" || relative.endsWith("/")) relative += "index.html";
    const file = normalize(join(root, relative));
    const inside = file.startsWith(root) && !relative.includes("\0");
    const info = inside ? await stat(file).catch(() => undefined) : undefined;
    const target = info?.isDirectory() ? join(file, "index.html") : file;
    const targetInfo = info?.isDirectory() ? await stat(target).catch(() => undefined) : info;
    if (!targetInfo?.isFile()) {
      writeFailure(res, 404, "Not found: no such page in the docs.");
      return;
    }
    res.writeHead(200, {
      "Content-Type": TYPES[extname(target).toLowerCase()] ?? "application/octet-stream",
      "Content-Length": targetInfo.size,
    });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    createReadStream(target)
      .on("error", () => res.destroy())
      .pipe(res);
  };
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
