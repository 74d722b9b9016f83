// The other MSW handlers a frontend team could pick for this API, made from generated/openapi.json
// as their own documentation says (npm run bench -- --only msw): msw-auto-mock's generated handlers
// (its CLI, TypeScript, into a temporary folder, never the repository) and @mswjs/source's
// fromOpenApi(document), called in the page. Both take the document's server address as the base of
// their handlers; its URL is the template `{base_url}`, whose default (http://127.0.0.1:4010, where
// the page's client calls) msw-auto-mock is given as --base-url and fromOpenApi as the document's
// servers (it does not fill in server variables). A peer that cannot be made says why, in one line.
// The peers are installed for the run into the temporary folder, at the versions named here, not
// kept as the repository's dependencies (msw-auto-mock alone brings about 65 MB: AI SDKs, prettier);
// their peer dependencies (msw, faker) are the repository's own, so the page has one msw.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PageHandlers } from "../lib/first-answer.js";

/** The peers' versions, as npm installs them for a run. */
export const PEER_VERSIONS = { "msw-auto-mock": "0.32.1", "@mswjs/source": "0.5.0" } as const;

/** Where the page's client calls: the document's server variable `base_url`'s default. */
const BASE_URL = "http://127.0.0.1:4010";

export type Peer = PageHandlers & { version: string } & ({ ok: true } | { ok: false; reason: string });

const versionOf = (root: string, name: string) => {
  try {
    return String(JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version);
  } catch {
    return "not installed";
  }
};

const firstLine = (error: unknown) => {
  const text = error instanceof Error ? `${(error as { stderr?: Buffer }).stderr?.toString().trim() || error.message}` : String(error);
  return text.split("\n").find((line) => line.trim() !== "")?.trim() ?? "no message";
};

/** msw-auto-mock (installed in peersFolder(work))'s handlers for the clone `root`'s generated/openapi.json, generated into `work`. */
function mswAutoMock(root: string, work: string): Peer {
  const label = "msw-auto-mock";
  const version = versionOf(peersFolder(work), label);
  const out = join(work, "msw-auto-mock");
  const setup = `import { handlers as generated } from ${JSON.stringify(join(out, "handlers.ts"))};\nconst handlers = async () => generated;`;
  try {
    execFileSync(process.execPath, [join(peersFolder(work), "node_modules", label, "bin", "cli.js"), join(root, "generated", "openapi.json"), "-o", out, "--typescript", "--base-url", BASE_URL], { cwd: work, stdio: ["ignore", "ignore", "pipe"], timeout: 120_000 });
    readFileSync(join(out, "handlers.ts"));
    return { label, version, setup, ok: true };
  } catch (error) {
    return { label, version, setup, ok: false, reason: `its CLI made no handlers: ${firstLine(error)}` };
  }
}

/** @mswjs/source's fromOpenApi(generated/openapi.json), the server's address given. */
function mswjsSource(root: string): Peer {
  const label = "@mswjs/source";
  const version = versionOf(root, label);
  const setup = [
    // The page's import (bundled with the peers' folder on its paths), not one of this script's.
    `import { fromOpenApi } from ${JSON.stringify(`${label}/open-api`)};`,
    `import document from "./generated/openapi.json";`,
    `const handlers = () => fromOpenApi({ ...document, servers: [{ url: ${JSON.stringify(BASE_URL)} }] });`,
  ].join("\n");
  return version === "not installed" ? { label, version, setup, ok: false, reason: "not installed" } : { label, version, setup, ok: true };
}

/**
 * Installs both peers into `work` (a temporary folder the caller removes), without their peer
 * dependencies (the repository's msw and faker serve them, found through the bundle's nodePaths);
 * an install that fails leaves each peer "not installed", with npm's first line as the reason.
 */
export function installPeers(work: string): string | undefined {
  try {
    execFileSync("npm", ["install", "--prefix", peersFolder(work), "--no-save", "--no-package-lock", "--ignore-scripts", "--legacy-peer-deps", "--no-audit", "--no-fund", "--loglevel=error", ...Object.entries(PEER_VERSIONS).map(([name, version]) => `${name}@${version}`)], { stdio: ["ignore", "ignore", "pipe"], timeout: 300_000 });
    return undefined;
  } catch (error) {
    return `npm could not install it: ${firstLine(error)}`;
  }
}

/**
 * Where the peers are installed in `work`: a folder of its own, so that the handlers msw-auto-mock
 * generates beside it (in `work`) find msw and faker in the clone, as its users' own peers, not in
 * what the peers brought.
 */
export const peersFolder = (work: string) => join(work, "peers");

/** Both peers, installed (installPeers) and made in `work`, for the clone `root`. */
export function makePeers(root: string, work: string): Peer[] {
  const failed = installPeers(work);
  const peers = [mswAutoMock(root, work), mswjsSource(peersFolder(work))];
  return failed ? peers.map((peer) => ({ ...peer, ok: false as const, reason: failed })) : peers;
}

/** A page entry for measuring size: msw's worker, the handlers `setup` defines, the client. */
export const sizeEntry = (setup: string) => `
import { setupWorker } from "msw/browser";
import { createClient } from "hr-service-contract/client";
${setup}
export const start = async () => setupWorker(...(await handlers())).start();
export { createClient };
`;
