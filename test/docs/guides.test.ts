// The Markdown pages of the site: headings get GitHub's ids, links are mapped to the site's pages or
// refused, the guides come in the reading order with none missing or unlisted, the benchmarks page
// shows docs/benchmarks.md when npm run bench has written it, and the events page anchors each event
// by its type.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { keyMessagesByName } from "../../scripts/docs/events-reference.js";
import { GUIDE_ORDER, GuideError, loadGuides, renderBenchmarksPage, siteImageResolver, siteLinkResolver, type ReferenceFacts } from "../../scripts/docs/guides.js";
import { renderMarkdown } from "../../scripts/docs/markdown.js";
import { listEvents, listOperations } from "../../scripts/docs/spec-facts.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";

const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), "utf8"));
const openapi = readJson("generated/openapi.json");
const asyncapi = readJson("generated/asyncapi.json");
const facts: ReferenceFacts = { operations: listOperations(openapi), events: listEvents(asyncapi) };
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "hr-guides-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("renderMarkdown", () => {
  it("gives headings GitHub's ids (code marks dropped, repeats numbered) and takes the title and the first paragraph", () => {
    const page = renderMarkdown("# Your own data: `--data` and `hr-mock export`\n\nFirst, `code`.\n\n## A & B\n\ntext\n\n## A & B\n");
    expect(page.headings.map((h) => h.id)).toEqual(["your-own-data---data-and-hr-mock-export", "a--b", "a--b-1"]);
    expect(page.title).toBe("Your own data: --data and hr-mock export");
    expect(page.summary).toBe("First, <code>code</code>.");
    expect(page.html).toContain('<h2 id="a--b-1">A &amp; B</h2>');
  });
});

describe("a guide's links on the site", () => {
  const resolve = siteLinkResolver("docs/guides/getting-started.md", facts);
  const cases: Array<[string, { given: string; want: string | RegExp }]> = [
    ["another guide, by its .md file", { given: "receiving-webhooks.md", want: "receiving-webhooks.html" }],
    ["a section of another guide", { given: "changing-the-contract.md#the-gate-and-acknowledging-a-break", want: "changing-the-contract.html#the-gate-and-acknowledging-a-break" }],
    ["the benchmarks npm run bench writes", { given: "../benchmarks.md", want: "benchmarks.html" }],
    ["an operation, by its operationId", { given: "api.html#listLeaveRequests", want: "api.html#/leave-requests/listleaverequests" }],
    ["a route of the API reference, as written", { given: "api.html#/section/authentication", want: "api.html#/section/authentication" }],
    ["an event, by its type", { given: "events.html#leave.approved", want: "events.html#message-leave.approved" }],
    ["a page of the site", { given: "keys.html", want: "keys.html" }],
    ["another site", { given: "https://mswjs.io", want: "https://mswjs.io" }],
    ["a section of this page", { given: "#the-data", want: "#the-data" }],
    ["an operation the API does not have", { given: "api.html#listPayslips", want: /names no operation of the API/ }],
    ["a file of the repository", { given: "../../examples/data/small-team.yaml", want: /points at no page of the site/ }],
    ["a guide that is not in the reading order", { given: "drafts.md", want: /points at no page of the site/ }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    if (typeof want === "string") expect(resolve(given)).toBe(want);
    else expect(() => resolve(given)).toThrow(want);
  });
});

describe("a guide's pictures on the site", () => {
  const resolve = siteImageResolver("docs/guides/run-one-mock-for-many-teams.md");
  const cases: Array<[string, { given: string; want: string | RegExp }]> = [
    ["an SVG beside the guides, under images/", { given: "images/deployment.svg", want: "images/deployment.svg" }],
    ["the same, written the long way", { given: "./images/../images/deployment.svg", want: "images/deployment.svg" }],
    ["a picture that is not an SVG", { given: "images/deployment.png", want: /is not an SVG of docs\/guides\/images\// }],
    ["a file of the repository elsewhere", { given: "../../examples/deploy/diagram.svg", want: /is not an SVG of docs\/guides\/images\// }],
    ["another site's picture", { given: "https://example.com/x.svg", want: /is not an SVG/ }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    if (typeof want === "string") expect(resolve(given)).toBe(want);
    else expect(() => resolve(given)).toThrow(want);
  });
});

describe("loadGuides", () => {
  it("renders every guide of docs/guides/ in GUIDE_ORDER, each with a title", async () => {
    const guides = await loadGuides(repoRoot, facts);
    expect(guides.map((guide) => guide.slug)).toEqual([...GUIDE_ORDER]);
    for (const guide of guides) expect(guide.title, guide.source).not.toBe("");
  });

  const folder = (files: Record<string, string>) => {
    const dir = fs.mkdtempSync(path.join(scratch, "guides-"));
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    return dir;
  };
  const all = Object.fromEntries(GUIDE_ORDER.map((slug) => [`${slug}.md`, `# ${slug}\n\nText.\n`]));
  const cases: Array<[string, { given: Record<string, string>; want: RegExp }]> = [
    ["a guide missing from the folder", { given: { ...all, "limits-and-abuse.md": undefined as unknown as string }, want: /no limits-and-abuse\.md, which GUIDE_ORDER lists/ }],
    ["a guide not in the reading order", { given: { ...all, "drafts.md": "# Drafts\n" }, want: /drafts\.md not in GUIDE_ORDER/ }],
    ["a guide without a title", { given: { ...all, "getting-started.md": "Text only.\n" }, want: /getting-started\.md: no "# " title/ }],
    ["a broken link", { given: { ...all, "getting-started.md": "# Start\n\n[x](../../README.md)\n" }, want: /the link \.\.\/\.\.\/README\.md points at no page/ }],
    ["a picture that is not there", { given: { ...all, "getting-started.md": "# Start\n\n![a map](images/missing.svg)\n" }, want: /the picture images\/missing\.svg is not in/ }],
  ];
  it.each(cases)("refuses %s, naming it", async (_name, { given, want }) => {
    const files = Object.fromEntries(Object.entries(given).filter(([, text]) => text !== undefined));
    await expect(loadGuides(repoRoot, facts, folder(files))).rejects.toThrow(GuideError);
    await expect(loadGuides(repoRoot, facts, folder(files))).rejects.toThrow(want);
  });
});

describe("the benchmarks page", () => {
  it("shows docs/benchmarks.md as npm run bench wrote it", async () => {
    const file = path.join(scratch, "benchmarks.md");
    fs.writeFileSync(file, "# Benchmarks\n\nPrinted by `npm run bench`:\n\n| server | req/s |\n|---|---|\n| hr-mock | 123 |\n");
    const html = await renderBenchmarksPage(repoRoot, facts, { guides: [] }, file);
    expect(html).toContain("<td>hr-mock</td>");
    expect(html).toContain('<h1 id="benchmarks">Benchmarks</h1>');
  });

  it("without the file, says how to make it", async () => {
    const html = await renderBenchmarksPage(repoRoot, facts, { guides: [] }, path.join(scratch, "none.md"));
    expect(html).toContain("No figures yet");
    expect(html).toContain("<code>npm run bench</code>");
  });
});

describe("keyMessagesByName (the events page's copy of the document)", () => {
  it("keys each message by its event type and rewrites the references to it", () => {
    const doc = {
      channels: { hooks: { messages: { leaveApproved: { name: "leave.approved", payload: {} }, ping: { payload: {} } } } },
      operations: { send: { channel: { $ref: "#/channels/hooks" }, messages: [{ $ref: "#/channels/hooks/messages/leaveApproved" }, { $ref: "#/channels/hooks/messages/ping" }] } },
      components: { messages: { leaveApproved: { name: "leave.approved" } } },
    };
    const keyed = keyMessagesByName(doc);
    expect(Object.keys(keyed.channels.hooks.messages)).toEqual(["leave.approved", "ping"]);
    expect(keyed.operations.send.messages).toEqual([{ $ref: "#/channels/hooks/messages/leave.approved" }, { $ref: "#/channels/hooks/messages/ping" }]);
    expect(Object.keys(keyed.components.messages)).toEqual(["leave.approved"]);
    expect(Object.keys(doc.channels.hooks.messages), "the document itself is left alone").toEqual(["leaveApproved", "ping"]);
  });

  it("keeps every event type of the bundled document, each under its own name", () => {
    const keyed = keyMessagesByName(asyncapi);
    const names = Object.values<any>(asyncapi.components.messages).map((message) => message.name);
    expect(Object.keys(keyed.components.messages).sort()).toEqual([...names].sort());
  });
});
