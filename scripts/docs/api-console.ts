// The API reference's console ("Try it"), built with the site: the loader inlined into api.html
// (a button per operation, a few KB) and api-console.js beside it (the panel and the mock's MSW
// handlers, answering in the page through MSW's getResponse: no service worker, which file:// has
// not, and no request leaving the page), both through the one page build (scripts/lib/msw-bundle.ts).
import type { Json } from "./spec-locations.js";
import { DEMO_KEYS } from "../../mock/keys/demo-keys.js";
import { buildPage } from "../lib/msw-bundle.js";
import { consoleOperations } from "./console/operations.js";
import { curlOf } from "./console/requests.js";
import type { ConsoleSetup } from "./console/panel.js";
import { defaultBaseUrl } from "./spec-facts.js";

/** The console's file, beside api.html. */
export const CONSOLE_SCRIPT = "api-console.js";

/** What the panel reads, from the spec and the mock's demo keys. */
export function consoleSetup(openapi: Json): Omit<ConsoleSetup, "answerInPage"> {
  const operations = consoleOperations(openapi);
  // The key chosen at first: one that may call every operation.
  const full = DEMO_KEYS.find((key) => operations.every((operation) => !operation.permission || key.permissions.includes(operation.permission))) ?? DEMO_KEYS[0]!;
  return {
    operations,
    keys: DEMO_KEYS.map(({ key, label, permissions }) => ({ key, label, permissions })),
    defaultKey: full.key,
    serverUrl: defaultBaseUrl(openapi),
  };
}

/**
 * The document Redoc renders: the bundled one with each operation's example request as a curl code
 * sample (x-codeSamples, every example filled in, with the default key), written by the console's
 * own function, so the sample and the console's copy buttons agree. The typed-client call is the
 * panel's: Redoc 3 shows one language of x-codeSamples (curl here) and ignored a second sample.
 */
export function withCodeSamples(openapi: Json): Json {
  const setup = consoleSetup(openapi);
  const document = structuredClone(openapi);
  for (const operation of setup.operations) {
    const examples = Object.fromEntries(operation.fields.map((field) => [field.name, field.example]));
    const target = document.paths[operation.path][operation.method.toLowerCase()];
    target["x-codeSamples"] = [
      { lang: "Shell", label: "curl", source: curlOf(operation, examples, setup.defaultKey, setup.serverUrl) },
    ];
  }
  return document;
}

const consoleEntry = (setup: Omit<ConsoleSetup, "answerInPage">) => `
import { getResponse } from "msw";
import { createHandlers } from "./mock/msw/index.ts";
import { mountPanel } from "./scripts/docs/console/panel.ts";
const setup = ${JSON.stringify(setup)};
// Built now, so the documents, Prism and the dataset load while the reader fills the form in.
const handlers = createHandlers({ baseUrl: setup.serverUrl });
const answerInPage = async (request) => (await getResponse(handlers, request)) ?? new Response("no handler matched " + request.url, { status: 404 });
window.hrApiConsole = { open: (container, operationId) => mountPanel({ ...setup, answerInPage }, container, operationId) };
`;

const loaderEntry = (operationIds: string[]) => `
import { installTryIt } from "./scripts/docs/console/loader.ts";
installTryIt(${JSON.stringify(operationIds)}, ${JSON.stringify(CONSOLE_SCRIPT)});
`;

/** The loader's script (minified, for inlining) and the console's (one classic script). */
export async function buildApiConsole(openapi: Json, repoRoot: string): Promise<{ loader: string; console: string }> {
  const setup = consoleSetup(openapi);
  const [loader, console_] = await Promise.all([
    buildPage({ entry: { source: loaderEntry(setup.operations.map((op) => op.operationId)), resolveDir: repoRoot }, format: "iife", minify: true, shims: false }),
    buildPage({ entry: { source: consoleEntry(setup), resolveDir: repoRoot }, format: "iife", minify: true }),
  ]);
  return { loader: loader.files[0]!.text, console: console_.files[0]!.text };
}
