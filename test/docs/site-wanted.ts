// What each page of the docs site must show, read from the specs, the mock's keys, the recorded
// releases and the guides apart from the pages' own code: the references everything their documents
// hold, the landing page each audience's quick start, a guide every heading (test/docs/site.test.ts).
import fs from "node:fs";
import path from "node:path";
import { DEMO_KEYS } from "../../mock/keys/demo-keys.js";
import { compareContracts } from "../../mock/diff/compare.js";
import { repoRoot } from "../../scripts/build-docs.js";
import type { Guide } from "../../scripts/docs/guides.js";
import { PAGES, type PageId } from "../../scripts/docs/layout.js";
import { asyncapi, openapi } from "./site-support.js";

/** Every `x-assumption` sentence of a document, found by walking it (independent of the page's own code). */
function assumptionSentences(doc: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown) => {
    if (node === null || typeof node !== "object") return;
    const mark = (node as Record<string, unknown>)["x-assumption"];
    if (typeof mark === "string") found.add(mark.trim());
    for (const child of Object.values(node)) walk(child);
  };
  walk(doc);
  return [...found];
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
export const operations = Object.entries<Record<string, any>>(openapi.paths).flatMap(([route, item]) =>
  Object.entries(item)
    .filter(([method]) => HTTP_METHODS.has(method))
    .map(([method, operation]) => ({ route, method, summary: String(operation.summary ?? operation.operationId), tags: (operation.tags ?? []) as string[] })),
);
const messages = Object.entries<Record<string, any>>(asyncapi.components.messages).map(([key, message]) => ({
  name: String(message.name ?? key),
  title: message.title as string | undefined,
  example: (message.examples?.[0] ?? {}) as { name?: string; headers?: Record<string, string>; payload?: { id?: string; data?: Record<string, unknown> } },
}));
const deliveryHeaders = Object.keys(asyncapi.components.schemas.WebhookHeaders.properties);

/** The releases recorded in contract-releases/, read here apart from the page's own code. */
const releases = fs
  .readdirSync(path.join(repoRoot, "contract-releases"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && /^\d+\.\d+\.\d+/.test(entry.name))
  .map((entry) => {
    const dir = path.join(repoRoot, "contract-releases", entry.name);
    const read = (file: string) => JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
    return { version: entry.name, date: String(read("release.json").date), openapi: read("openapi.json"), asyncapi: read("asyncapi.json") };
  })
  .sort((a, b) => a.version.localeCompare(b.version, undefined, { numeric: true }));
const lastRelease = releases.at(-1);
/** What changed since the last release, as npm run diff says it: the page must show every line. */
const unreleased = lastRelease ? compareContracts({ label: "last", ...lastRelease }, { label: "working tree", openapi, asyncapi }).changes : [];

export interface Wanted {
  /** What the page must show, as the failure message names it. */
  what: string;
  texts: Array<{ label: string; text: string }>;
}

const WANTED: Record<PageId, Wanted> = {
  index: {
    what: "each audience's quick start",
    texts: [
      { label: "frontend quick start", text: "npx hr-mock serve" },
      { label: "CI quick start", text: "npx hr-contract --base-url URL --api-key KEY" },
      ...["Frontend developer", "Integration developer", "CI maintainer", "Contract author", "Reader"].map((text) => ({ label: `audience ${text}`, text })),
    ],
  },
  api: {
    what: "every operation of generated/openapi.json",
    texts: operations.map((operation) => ({ label: `${operation.method.toUpperCase()} ${operation.route}`, text: operation.summary })),
  },
  events: {
    what: "every message (event type) of generated/asyncapi.json with its headers, payload fields and example",
    texts: [
      ...deliveryHeaders.map((header) => ({ label: `delivery header ${header}`, text: header })),
      ...messages.flatMap((message) => [
        { label: `event type ${message.name}`, text: message.name },
        ...(message.title ? [{ label: `title of ${message.name}`, text: message.title }] : []),
        ...(message.example.name ? [{ label: `example of ${message.name}`, text: message.example.name }] : []),
        ...(message.example.payload?.id ? [{ label: `example payload id of ${message.name}`, text: message.example.payload.id }] : []),
        ...(message.example.headers?.["Service-Signature"] ? [{ label: `example signature of ${message.name}`, text: message.example.headers["Service-Signature"] }] : []),
        ...Object.keys(message.example.payload?.data ?? {}).map((field) => ({ label: `data field ${field} of ${message.name}`, text: field })),
      ]),
    ],
  },
  assumptions: {
    what: "every x-assumption of both documents",
    texts: [...new Set([...assumptionSentences(openapi), ...assumptionSentences(asyncapi)])].map((sentence) => ({
      label: sentence.slice(0, 60),
      text: sentence,
    })),
  },
  keys: {
    what: "every demo key of mock/keys",
    texts: DEMO_KEYS.flatMap((key) => [
      { label: `key ${key.key}`, text: key.key },
      { label: `label of ${key.key}`, text: key.label },
    ]),
  },
  changelog: {
    what: "every recorded release of contract-releases/ and each change since the last",
    texts: [
      { label: "the unreleased section", text: "Unreleased" },
      ...releases.map((release) => ({ label: `release ${release.version}`, text: `${release.version} — ${release.date}` })),
      ...unreleased.map((change) => ({ label: `unreleased change ${change.id.slice(0, 60)}`, text: `${change.place} ${change.what}` })),
    ],
  },
  benchmarks: {
    what: "the benchmark figures npm run bench wrote, or how to make them",
    texts: [{ label: "its title", text: "Benchmarks" }, { label: "the command that writes them", text: "npm run bench" }],
  },
};

/** What a page must show: PAGES' from the specs and the mock, a guide's its title and every heading. */
export function wantedOf(file: string, guides: Guide[]): Wanted {
  const page = PAGES.find((p) => p.file === file);
  if (page) return WANTED[page.id as PageId];
  const guide = guides.find((g) => g.file === file);
  if (!guide) throw new Error(`${file}: neither a page of PAGES nor a guide`);
  return { what: `every heading of ${guide.source}`, texts: guide.headings.map((heading) => ({ label: `heading "${heading.text}"`, text: heading.text })) };
}
