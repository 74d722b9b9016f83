// The landing page: what the package is, a quick start for each audience with the guide to read
// next, every guide, and what the specs hold, each operation and event linked to its reference.
import { escapeHtml } from "./html.js";
import { renderPage, type SiteNav } from "./layout.js";
import { eventLink, operationLink } from "./reference-links.js";
import type { EventFact, OperationFact } from "./spec-facts.js";

export interface LandingGuide {
  slug: string;
  file: string;
  title: string;
  /** Inline HTML. */
  summary: string;
}

export interface LandingFacts {
  description: string;
  operations: OperationFact[];
  events: EventFact[];
  assumptionCount: number;
  keyCount: number;
  baseUrl: string;
  exampleKey: string;
  guides: LandingGuide[];
}

/** The port of the local receiver in every example of the docs: the README's receiver listens there. */
export const RECEIVER_PORT = 3000;

export function renderLandingPage(facts: LandingFacts, site: SiteNav): string {
  const guide = (slug: string) => {
    const found = facts.guides.find((g) => g.slug === slug);
    if (!found) throw new Error(`the landing page links the guide ${slug}, which docs/guides/ does not have`);
    return `<a href="${escapeHtml(found.file)}">${escapeHtml(found.title)}</a>`;
  };
  const operationRows = facts.operations.map(
    (operation) =>
      `<tr><td><a href="${escapeHtml(operationLink(operation))}">${escapeHtml(operation.method)} <code>${escapeHtml(operation.path)}</code></a></td><td>${escapeHtml(operation.summary)}</td><td>${escapeHtml(operation.permission ?? "—")}</td></tr>`,
  );
  const eventRows = facts.events.map(
    (event) => `<tr><td><a href="${escapeHtml(eventLink(event))}"><code>${escapeHtml(event.name)}</code></a></td><td>${escapeHtml(event.summary || event.title)}</td></tr>`,
  );
  const guideItems = facts.guides.map((g) => `<li><a href="${escapeHtml(g.file)}">${escapeHtml(g.title)}</a>: ${g.summary}</li>`);
  // The examples call the first list operation of the spec and trigger leave.approved, the event the provider shows in full.
  const firstList = facts.operations.find((operation) => operation.path.endsWith("/list")) ?? facts.operations[0];
  const exampleEvent = (facts.events.find((event) => event.name === "leave.approved") ?? facts.events[0])?.name;
  const body = `
<h1>HR service contract</h1>
<p class="lead">${escapeHtml(facts.description)}</p>
<p>The provider's document, the only description of the service, is not part of this repository: this package turns it
into an OpenAPI 3.1 description of the read API (${facts.operations.length} operations) and an AsyncAPI 3 description of the
webhook events (${facts.events.length} event types), and decides, in the open, what the document leaves unsaid
(${facts.assumptionCount} <a href="assumptions.html">assumptions</a>).</p>

<h2>Quick start</h2>
<div class="cards wide-cards">
<section class="card" id="frontend">
<h3>Frontend developer</h3>
<p>In a clone of the repository, start the mock, then call it with a demo key, or with the package's typed client.</p>
<pre><code>npm ci &amp;&amp; npm start   # the mock on ${escapeHtml(facts.baseUrl)}, its docs under /docs/ once npm run docs has built them</code></pre>
${
  firstList
    ? `<pre><code>curl -s -H "Authorization: Bearer ${escapeHtml(facts.exampleKey)}" ${escapeHtml(facts.baseUrl)}${escapeHtml(firstList.path)}</code></pre>
<pre><code>import { createClient } from "hr-service-contract/client";

const hr = createClient({ baseUrl: "${escapeHtml(facts.baseUrl)}", apiKey: "${escapeHtml(facts.exampleKey)}" });
for await (const item of hr.iterate("${escapeHtml(firstList.operationId)}")) console.log(item);</code></pre>`
    : ""
}
<p>One method per operation, typed from the spec; the <a href="keys.html">demo keys</a> cover every permission. Read next:
${guide("developing-a-frontend")}, ${guide("mocking-with-msw")}, ${guide("data-sandboxes-and-state")}.</p>
</section>
<section class="card" id="integration">
<h3>Integration developer</h3>
<p>Receive signed webhook events: the mock signs and delivers them as the service would. In three terminals, the mock sends
to a local receiver that verifies each delivery and prints one line for it, and a trigger fires an event:</p>
<pre><code>npx hr-mock serve --webhook-url http://127.0.0.1:${RECEIVER_PORT}/hooks   # prints the endpoint's secret
npx hr-mock receive --port ${RECEIVER_PORT} --secret whsec_…${exampleEvent ? `
npx hr-mock trigger ${escapeHtml(exampleEvent)}` : ""}</code></pre>
<p>Each event type, its headers and its payload are in the <a href="events.html">events reference</a>. Read next:
${guide("receiving-webhooks")}.</p>
</section>
<section class="card" id="ci">
<h3>CI maintainer</h3>
<p>Run the contract suite against any deployment (the mock, a staging service, the real one). It only sends GET
requests, reports each assumption as held or not, and writes JUnit XML.</p>
<pre><code>npm run contract -- --base-url URL --api-key KEY   # in a clone
npx hr-contract --base-url URL --api-key KEY       # with hr-service-contract installed</code></pre>
<p>It exits non-zero on a contract violation, zero when only <a href="assumptions.html">assumptions</a> differ. Read next:
${guide("checking-a-deployment-in-ci")}.</p>
</section>
<section class="card" id="contract-author">
<h3>Contract author</h3>
<p>Edit the documents under <code>openapi/</code> and <code>asyncapi/</code>, then lint, regenerate and see what the change
breaks for the people who build on the package:</p>
<pre><code>npm run lint &amp;&amp; npm run generate &amp;&amp; npm run diff</code></pre>
<p>Read next: ${guide("changing-the-contract")}; the <a href="changelog.html">changelog</a> lists what changed.</p>
</section>
<section class="card" id="reader">
<h3>Reader</h3>
<p>Read the contract without running anything: the <a href="api.html">API reference</a> (every endpoint, parameter and
response), the <a href="events.html">events</a> (every event type and how deliveries are signed), the
<a href="assumptions.html">assumptions</a> (what the package decides where the provider is silent) and the
<a href="keys.html">demo keys</a> (the mock's ${facts.keyCount} API keys). Contributors: ${guide("how-the-mock-is-built")}.</p>
</section>
</div>

<h2>Guides</h2>
<ul class="guides">
${guideItems.join("\n")}
</ul>
<p class="muted">Neither package is on the npm registry yet: ${guide("getting-started")} says how to install them from
<code>npm pack</code> tarballs.</p>

<h2>Read API</h2>
<table><thead><tr><th>Endpoint</th><th>What it does</th><th>Permission</th></tr></thead>
<tbody>
${operationRows.join("\n")}
</tbody></table>

<h2>Webhook events</h2>
<table><thead><tr><th>Type</th><th>When</th></tr></thead>
<tbody>
${eventRows.join("\n")}
</tbody></table>
`;
  return renderPage({ active: "index.html", title: "Home", body, site });
}
