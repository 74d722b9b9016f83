// The assumptions page: every x-assumption of both documents, then what the provider does not show.
import type { Mark, Place } from "./assumptions.js";
import { escapeHtml, inlineMarkdown } from "./html.js";
import { renderPage, type SiteNav } from "./layout.js";

/** Places as a list; `withDocument` names the document (operations, webhooks and events name themselves). */
function places(list: Place[], withDocument: boolean): string {
  if (list.length === 0) return "—";
  const items = list.map(
    (place) => `<li>${escapeHtml(place.label)}${withDocument ? ` <span class="muted">(${escapeHtml(place.document)})</span>` : ""}</li>`,
  );
  return `<ul class="where">${items.join("")}</ul>`;
}

/** "Applies to" only when it says more than "where": an operation-level mark applies to itself. */
function appliesTo(mark: Mark): string {
  const where = new Set(mark.where.map((place) => `${place.document}\u0000${place.label}`));
  const extra = mark.appliesTo.filter((place) => !where.has(`${place.document}\u0000${place.label}`));
  return extra.length === 0 ? "—" : places(mark.appliesTo, false);
}

function table(marks: Mark[], id: string): string {
  const rows = marks.map(
    (mark, index) =>
      `<tr id="${id}-${index + 1}"><td>${index + 1}</td><td>${places(mark.where, true)}</td><td>${inlineMarkdown(mark.sentence)}</td><td>${appliesTo(mark)}</td></tr>`,
  );
  return `<table class="marks stack"><thead><tr><th>#</th><th>Where</th><th>Assumption</th><th>Applies to</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody></table>`;
}

function notShownTable(marks: Mark[]): string {
  const rows = marks.map((mark) => `<tr><td>${places(mark.where, true)}</td><td>${inlineMarkdown(mark.sentence)}</td></tr>`);
  return `<table class="not-shown stack"><thead><tr><th>Where</th><th>What the documents say</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody></table>`;
}

export function renderAssumptionsPage({ assumptions, notShown }: { assumptions: Mark[]; notShown: Mark[] }, site: SiteNav): string {
  const api = assumptions.filter((mark) => mark.section === "api");
  const events = assumptions.filter((mark) => mark.section === "events");
  const body = `
<h1>Assumptions</h1>
<p class="lead">The provider's document is silent on many details. Where it is, this package decides, and marks the
decision in the specs with <code>x-assumption</code>. This page is generated from those marks:
${assumptions.length} assumptions (${api.length} about the read API, ${events.length} about the webhook events).
The live contract suite (<code>npm run contract</code>) reports for a real deployment whether each one held.</p>
<p class="muted">"Where" is the place in the bundled OpenAPI or AsyncAPI document that carries the mark; "Applies to"
lists the operations, webhooks and events that use it.</p>

<h2 id="read-api">Read API</h2>
${table(api, "api")}

<h2 id="webhook-events">Webhook events</h2>
${table(events, "events")}

<h2 id="not-shown">Not shown by the provider</h2>
<p>What the documents describe as unknown, in their own words (${notShown.length} items). The package's behaviour for
these is covered by the assumptions above where it matters to a caller.</p>
${notShownTable(notShown)}
`;
  return renderPage({ active: "assumptions.html", title: "Assumptions", body, site });
}
