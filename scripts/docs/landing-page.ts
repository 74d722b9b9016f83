// The landing page: what the package is, a quick start for each audience, and what the specs hold.
import { escapeHtml } from "./html.js";
import { renderPage } from "./layout.js";
import type { EventFact, OperationFact } from "./spec-facts.js";

export interface LandingFacts {
  description: string;
  operations: OperationFact[];
  events: EventFact[];
  assumptionCount: number;
  keyCount: number;
  baseUrl: string;
  exampleKey: string;
}

export function renderLandingPage(facts: LandingFacts): string {
  const operationRows = facts.operations.map(
    (operation) =>
      `<tr><td>${escapeHtml(operation.method)} <code>${escapeHtml(operation.path)}</code></td><td>${escapeHtml(operation.summary)}</td><td>${escapeHtml(operation.permission ?? "—")}</td></tr>`,
  );
  const eventRows = facts.events.map(
    (event) => `<tr><td><code>${escapeHtml(event.name)}</code></td><td>${escapeHtml(event.summary || event.title)}</td></tr>`,
  );
  // The examples call the first list operation of the spec and trigger leave.approved, the event the provider shows in full.
  const firstList = facts.operations.find((operation) => operation.path.endsWith("/list")) ?? facts.operations[0];
  const exampleEvent = (facts.events.find((event) => event.name === "leave.approved") ?? facts.events[0])?.name;
  const receiverPort = 8080;
  const body = `
<h1>HR service contract</h1>
<p class="lead">${escapeHtml(facts.description)}</p>
<p>The provider's document is the only description of the service. This package turns it into an OpenAPI 3.1
description of the read API (${facts.operations.length} operations) and an AsyncAPI 3 description of the webhook
events (${facts.events.length} event types), and decides, in the open, what the document leaves unsaid
(${facts.assumptionCount} assumptions).</p>

<h2>Quick start</h2>
<div class="cards">
<section class="card" id="frontend">
<h3>Frontend developer</h3>
<p>Install and start the mock, then call it with a demo key, or with the package's typed client.</p>
<pre><code>npm install hr-service-contract &amp;&amp; npm install --save-dev hr-service-mock
npx hr-mock serve</code></pre>
${
  firstList
    ? `<pre><code>curl -s -H "Authorization: Bearer ${escapeHtml(facts.exampleKey)}" \\
  ${escapeHtml(facts.baseUrl)}${escapeHtml(firstList.path)}</code></pre>
<pre><code>import { createHrClient } from "hr-service-contract/client";

const hr = createHrClient({
  baseUrl: "${escapeHtml(facts.baseUrl)}",
  apiKey: "${escapeHtml(facts.exampleKey)}",
});
for await (const item of hr.iterate("${escapeHtml(firstList.operationId)}")) {
  console.log(item);
}</code></pre>`
    : ""
}
<p>One method per operation, typed from the spec. Every endpoint is in the <a href="api.html">API reference</a>; the
<a href="keys.html">demo keys</a> cover every permission.</p>
</section>
<section class="card" id="integration">
<h3>Integration developer</h3>
<p>Receive signed webhook events: the mock signs and delivers them as the service would. Verify the
<code>Service-Signature</code> header over the raw body with the package's webhook helpers
(<code>verify</code>, <code>createReceiver</code> from <code>hr-service-contract/webhooks/node</code>; on an edge runtime
<code>verifyAsync</code>, <code>constructEventAsync</code> from <code>hr-service-contract/webhooks</code>) and skip repeats by
event id. Try the whole loop in three terminals: the mock sends to a local receiver that verifies each delivery
and prints one line for it, and a trigger fires an event:</p>
<pre><code>npx hr-mock serve --webhook-url http://127.0.0.1:${receiverPort}/hooks   # prints the endpoint's secret
npx hr-mock receive --port ${receiverPort} --secret whsec_…${exampleEvent ? `
npx hr-mock trigger ${escapeHtml(exampleEvent)}` : ""}</code></pre>
<p class="muted">In a clone of this repository, after <code>npm ci</code>, the same <code>npx hr-mock</code> commands run the sources.</p>
<p>Each event type, its headers and its payload are in the <a href="events.html">events reference</a>.</p>
</section>
<section class="card" id="ci">
<h3>CI maintainer</h3>
<p>Run the contract suite against any deployment (the mock, a staging service, the real one). It only sends GET
requests, reports each assumption as held or not, and writes JUnit XML.</p>
<pre><code>npm install hr-service-contract
npx hr-contract --base-url URL --api-key KEY</code></pre>
<p class="muted">No mock library is installed for it. In a clone of this repository: <code>npm run contract -- --base-url URL --api-key KEY</code>.</p>
<p>It exits non-zero on a contract violation, zero when only <a href="assumptions.html">assumptions</a> differ.</p>
</section>
<section class="card" id="reader">
<h3>Reader</h3>
<p>Read the contract without running anything:</p>
<ul>
<li><a href="api.html">API reference</a>: every endpoint, parameter and response.</li>
<li><a href="events.html">Events</a>: every webhook event type and how deliveries are signed.</li>
<li><a href="assumptions.html">Assumptions</a>: what the package decides where the provider is silent.</li>
<li><a href="keys.html">Demo keys</a>: the mock's ${facts.keyCount} API keys and their permissions.</li>
</ul>
</section>
</div>

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
  return renderPage({ active: "index", title: "Home", body });
}
