// The README is the front door and the guides are the manual: the README stays short and in the
// order a newcomer needs, links every guide, and every document tells a reader one story: one name
// for the client factory, one port for the local receiver, no pointer to a file a clone lacks, no
// benchmark figure typed into prose.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GUIDE_ORDER } from "../../scripts/docs/guides.js";
import { RECEIVER_PORT } from "../../scripts/docs/landing-page.js";
import { renderMarkdown } from "../../scripts/docs/markdown.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { commands, DOCUMENTS, fencedBlocks, README, section } from "./documents.js";

const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
const mockPkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "mock/package.json"), "utf8"));
const lines = README.text.split("\n");
const h2 = [...README.text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
/** Relative links of a Markdown text: [text](target). */
const linksOf = (text: string) => [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((href) => !/^[a-z]+:/i.test(href));

describe("README", () => {
  it("is at most 200 lines", () => {
    expect(lines.length, "README.md lines").toBeLessThanOrEqual(200);
  });

  it("says what the package is, then sets up, tries it, points onwards, lists the packages and the licence, in that order", () => {
    const intro = README.text.slice(README.text.indexOf("\n") + 1, README.text.indexOf("\n## "));
    expect(intro.trim().length, "a few sentences before the first section").toBeGreaterThan(200);
    expect(h2).toEqual(["Set up", "Try it", "Where next", "The packages", "Licence"]);
  });

  it("gives npm ci && npm start and npm ci && npm test within its first 40 lines", () => {
    const top = lines.slice(0, 40).join("\n");
    expect(top).toContain("npm ci && npm start");
    expect(top).toContain("npm ci && npm test");
  });

  it("tries one request with curl and one with the typed client", () => {
    const tryIt = section("Try it", [README]).text;
    expect(commands(tryIt).filter((command) => command.startsWith("curl ")), "curl requests").toHaveLength(1);
    const typed = fencedBlocks(tryIt).filter((block) => block.lang === "ts");
    expect(typed, "TypeScript snippets").toHaveLength(1);
    expect(typed[0].body, "the typed client").toContain("createClient(");
  });

  it("points each role at its guides, and every guide is linked", () => {
    const table = section("Where next", [README]).text;
    for (const role of ["frontend", "integration", "CI", "contract author", "contributor"]) {
      const row = table.split("\n").find((line) => line.startsWith(`| a ${role}`) || line.startsWith(`| an ${role}`));
      expect(row, `a row for the ${role}`).toBeDefined();
      expect(linksOf(row!).filter((href) => href.startsWith("docs/guides/")).length, `the ${role}'s row links a guide`).toBeGreaterThan(0);
    }
    const linked = new Set(linksOf(table).map((href) => href.split("#")[0]));
    expect(GUIDE_ORDER.filter((slug) => !linked.has(`docs/guides/${slug}.md`)), "guides the table does not link").toEqual([]);
  });

  it("links only to files and sections that exist", () => {
    const broken = linksOf(README.text).filter((href) => {
      const [file, anchor] = href.split("#");
      const full = path.join(repoRoot, file);
      if (!fs.existsSync(full)) return true;
      return anchor !== undefined && !renderMarkdown(fs.readFileSync(full, "utf8")).headings.some((heading) => heading.id === anchor);
    });
    expect(broken, "README links to missing files or headings").toEqual([]);
  });

  it("lists the two packages and what each installs, and the licence package.json declares", () => {
    const packages = section("The packages", [README]).text;
    for (const name of [pkg.name, mockPkg.name]) expect(packages, name).toContain(`| \`${name}\` |`);
    expect(pkg.license).toBe(mockPkg.license);
    expect(section("Licence", [README]).text).toContain(pkg.license);
  });
});

describe("what a reader meets, in every document", () => {
  const all = DOCUMENTS.map((doc) => `${doc.file}\n${doc.text}`).join("\n");

  it("one name for the client factory: createClient, the package's export", () => {
    expect(all).toContain("createClient(");
    expect(all).not.toContain("createHrClient");
  });

  it("one port for the local receiver, the one the receiver snippet and the landing page use", () => {
    const snippet = fs.readFileSync(path.join(repoRoot, "test/readme/receiver-snippet.ts"), "utf8");
    const ports = new Set([
      Number(/\.listen\((\d+)/.exec(snippet)?.[1]),
      RECEIVER_PORT,
      ...[...all.matchAll(/hr-mock receive --port (\d+)/g)].map((m) => Number(m[1])),
      ...DOCUMENTS.flatMap((doc) => fencedBlocks(doc.text))
        .filter((block) => block.body.includes("hr-mock receive"))
        .flatMap((block) => [...block.body.matchAll(/--webhook-url http:\/\/127\.0\.0\.1:(\d+)\//g)].map((m) => Number(m[1]))),
    ]);
    expect([...ports], "receiver ports").toEqual([RECEIVER_PORT]);
  });

  it("no pointer to the provider's document outside the repository", () => {
    expect(all).not.toMatch(/\.\.\/shared\/|service-api\.md/);
  });

  it("no benchmark figure typed into prose: npm run bench writes them to docs/benchmarks.md", () => {
    const figures = DOCUMENTS.flatMap((doc) =>
      doc.text
        .split("\n")
        .filter((line) => /\d[\d,.]*\s*(req\/s|µs)|\bp(50|99)\b[^|]*\d\s*ms|\d\.\d+x\b/.test(line))
        .map((line) => `${doc.file}: ${line.trim().slice(0, 100)}`),
    );
    expect(figures, "lines with measured figures").toEqual([]);
  });
});
