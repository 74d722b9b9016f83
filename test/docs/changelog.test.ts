// The changelog page from recorded releases: newest first, the working tree's changes since the
// last release on top, each change with its kind, place and reason, assumptions apart.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { changelogEntries, renderChangelogPage, type ReleasedContract } from "../../scripts/docs/changelog-page.js";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, "generated", file), "utf8"));
const release = (version: string, date: string, edit: (openapi: any, asyncapi: any) => void = () => {}): ReleasedContract => {
  const [openapi, asyncapi] = [read("openapi.json"), read("asyncapi.json")];
  edit(openapi, asyncapi);
  return { label: `release ${version}`, version, date, openapi, asyncapi };
};
const removeWebhook = (openapi: any) => delete openapi.webhooks["leave.rejected"];
const rewordAssumption = (openapi: any) => (openapi.components.parameters.PageSize["x-assumption"] = "The largest PageSize is 200.");
/** Text as a reader sees it: tags dropped, entities of the escaped spec text decoded, spaces collapsed. */
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&").replace(/\s+/g, " ");

describe.each([
  [
    "one release, working tree unchanged",
    { releases: () => [release("0.1.0", "2026-11-22")], working: () => release("head", ""), want: ["Unreleased", "No change since 0.1.0.", "0.1.0 — 2026-11-22", "The first recorded release: 7 read-API operations, 13 webhooks and 13 event types."] },
  ],
  [
    "a breaking change since the last release",
    { releases: () => [release("0.1.0", "2026-11-22")], working: () => release("head", "", removeWebhook), want: ["Since 0.1.0: 1 breaking, 0 non-breaking, 0 info; 0 assumption changes.", "breaking OpenAPI webhooks webhook leave.rejected webhook removed a receiver built on the old event can fail on the new one"] },
  ],
  [
    "two releases: the later one against the earlier",
    { releases: () => [release("0.1.0", "2026-11-22"), release("0.2.0", "2026-12-01", rewordAssumption)], working: () => release("head", "", rewordAssumption), want: ["No change since 0.2.0.", "0.2.0 — 2026-12-01 Since 0.1.0: 0 breaking, 0 non-breaking, 0 info; 1 assumption changes.", 'reworded OpenAPI /components/parameters/PageSize The largest PageSize is 100; a value above 100 or below 1 is a 400. The largest PageSize is 200.', "0.1.0 — 2026-11-22 The first recorded release"] },
  ],
])("%s", (name, { releases, working, want }) => {
  test("the page says it", () => {
    const page = text(renderChangelogPage(changelogEntries(releases(), working()), { guides: [] }));
    for (const line of want) expect(page, `${name}: the page lacks "${line}"`).toContain(line);
  });
});

test("no recorded release: the page says so", () => {
  expect(text(renderChangelogPage(changelogEntries([], release("head", "")), { guides: [] })), "page without releases").toContain("No release is recorded yet.");
});
