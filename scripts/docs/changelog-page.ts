// The changelog page: what changed in the contract between the releases recorded in
// contract-releases/, and since the last one (the working tree), as `npm run diff` judges it:
// breaking, non-breaking, info, and assumption changes apart.
import type { AssumptionChange, Change, Contract, ContractDiff } from "../../mock/diff/contract.js";
import { compareContracts } from "../../mock/diff/compare.js";
import { counts } from "../../mock/diff/format.js";
import { escapeHtml, inlineMarkdown } from "./html.js";
import { renderPage, type SiteNav } from "./layout.js";

export interface ReleasedContract extends Contract {
  version: string;
  date: string;
}

export interface ChangelogEntry {
  /** "Unreleased" or the version. */
  title: string;
  /** Anchor id. */
  id: string;
  date?: string;
  /** The version it is compared with; none for the first recorded release. */
  since?: string;
  diff?: ContractDiff;
  /** For the first release: what it holds. */
  holds?: { operations: number; webhooks: number; events: number };
}

const METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);

function holds(contract: Contract): ChangelogEntry["holds"] {
  const operations = Object.values<any>(contract.openapi?.paths ?? {}).reduce((sum, item) => sum + Object.keys(item ?? {}).filter((key) => METHODS.has(key)).length, 0);
  const events = Object.values<any>(contract.asyncapi?.channels ?? {}).reduce((sum, channel) => sum + Object.keys(channel?.messages ?? {}).length, 0);
  return { operations, webhooks: Object.keys(contract.openapi?.webhooks ?? {}).length, events };
}

/** Newest first: the working tree since the last release, then each release since the one before. */
export function changelogEntries(releases: ReleasedContract[], workingTree: Contract): ChangelogEntry[] {
  const entries: ChangelogEntry[] = [];
  const last = releases.at(-1);
  if (last) entries.push({ title: "Unreleased", id: "unreleased", since: last.version, diff: compareContracts(last, workingTree) });
  for (let index = releases.length - 1; index >= 0; index--) {
    const release = releases[index];
    const previous = releases[index - 1];
    entries.push({
      title: release.version,
      id: `v${release.version}`,
      date: release.date,
      ...(previous ? { since: previous.version, diff: compareContracts(previous, release) } : { holds: holds(release) }),
    });
  }
  return entries;
}

function changesTable(changes: Change[]): string {
  const rows = changes.map(
    (change) =>
      `<tr class="${change.kind}"><td>${escapeHtml(change.kind)}</td><td>${escapeHtml(change.document)} ${escapeHtml(change.scope)}</td><td>${inlineMarkdown(change.place)}</td><td>${inlineMarkdown(change.what)}</td><td>${escapeHtml(change.why)}</td></tr>`,
  );
  return `<table class="changes stack"><thead><tr><th>Kind</th><th>Document</th><th>Where</th><th>Change</th><th>Why</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody></table>`;
}

function assumptionsTable(changes: AssumptionChange[]): string {
  const rows = changes.map(
    (change) =>
      `<tr><td>${change.change}</td><td>${escapeHtml(change.document)} <code>${escapeHtml(change.where)}</code></td><td>${change.before ? inlineMarkdown(change.before) : "—"}</td><td>${change.after ? inlineMarkdown(change.after) : "—"}</td></tr>`,
  );
  return `<table class="assumption-changes stack"><thead><tr><th>Change</th><th>Where</th><th>Before</th><th>After</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody></table>`;
}

function section(entry: ChangelogEntry): string {
  const heading = `<h2 id="${escapeHtml(entry.id)}">${escapeHtml(entry.title)}${entry.date ? ` — ${escapeHtml(entry.date)}` : ""}</h2>`;
  if (entry.holds) {
    return `${heading}
<p>The first recorded release: ${entry.holds.operations} read-API operations, ${entry.holds.webhooks} webhooks and ${entry.holds.events} event types.
Later changes are listed against it.</p>`;
  }
  const diff = entry.diff!;
  const tally = counts(diff.changes);
  const summary = `${tally.breaking} breaking, ${tally["non-breaking"]} non-breaking, ${tally.info} info; ${diff.assumptions.length} assumption changes`;
  if (diff.changes.length === 0 && diff.assumptions.length === 0) return `${heading}\n<p class="none">No change since ${escapeHtml(entry.since ?? "")}.</p>`;
  return `${heading}
<p>Since ${escapeHtml(entry.since ?? "")}: ${summary}.</p>
${diff.changes.length ? changesTable(diff.changes) : ""}
${diff.assumptions.length ? `<h3>Assumptions</h3>\n${assumptionsTable(diff.assumptions)}` : ""}`;
}

export function renderChangelogPage(entries: ChangelogEntry[], site: SiteNav): string {
  const body = `
<h1>Changelog</h1>
<p class="lead">What changed in the contract from one recorded release to the next, judged as <code>npm run diff</code>
judges it: <strong>breaking</strong> for the read API is what breaks a client; for webhooks and events the direction is
reversed, and breaking is what breaks a receiver. Assumption changes are listed apart: an assumption that disappears
has often become a documented fact.</p>
${entries.length ? entries.map(section).join("\n") : "<p>No release is recorded yet.</p>"}
`;
  return renderPage({ active: "changelog.html", title: "Changelog", body, site });
}
