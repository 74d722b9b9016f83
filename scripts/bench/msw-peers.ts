// The other MSW handlers a frontend team could pick for this API, made from generated/openapi.json
// as their own documentation says (npm run bench -- --only msw): msw-auto-mock's generated handlers
// (its CLI, TypeScript, into a temporary folder, never the repository) and @mswjs/source's
// fromOpenApi(document), called in the page. Both take the document's server address as the base of
// their handlers; its URL is the template `{base_url}`, whose default (http://127.0.0.1:4010, where
// the page's client calls) msw-auto-mock is given as --base-url and fromOpenApi as the document's
// servers (it does not fill in server variables). A peer that cannot be made says why, in one line.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PageHandlers } from "../lib/first-answer.js";

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

/** msw-auto-mock's handlers for generated/openapi.json, generated into `work`. */
function mswAutoMock(root: string, work: string): Peer {
  const label = "msw-auto-mock";
  const version = versionOf(root, label);
  const out = join(work, "msw-auto-mock");
  const setup = `import { handlers as generated } from ${JSON.stringify(join(out, "handlers.ts"))};\nconst handlers = async () => generated;`;
  try {
    execFileSync(process.execPath, [join(root, "node_modules", label, "bin", "cli.js"), join(root, "generated", "openapi.json"), "-o", out, "--typescript", "--base-url", BASE_URL], { cwd: work, stdio: ["ignore", "ignore", "pipe"], timeout: 120_000 });
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
    `import { fromOpenApi } from "@mswjs/source/open-api";`,
    `import document from "./generated/openapi.json";`,
    `const handlers = () => fromOpenApi({ ...document, servers: [{ url: ${JSON.stringify(BASE_URL)} }] });`,
  ].join("\n");
  return version === "not installed" ? { label, version, setup, ok: false, reason: "not installed (a devDependency: npm ci)" } : { label, version, setup, ok: true };
}

/** Both peers, made in `work` (a temporary folder the caller removes). */
export function makePeers(root: string, work: string): Peer[] {
  return [mswAutoMock(root, work), mswjsSource(root)];
}

/** A page entry for measuring size: msw's worker, the handlers `setup` defines, the client. */
export const sizeEntry = (setup: string) => `
import { setupWorker } from "msw/browser";
import { createClient } from "hr-service-contract/client";
${setup}
export const start = async () => setupWorker(...(await handlers())).start();
export { createClient };
`;
