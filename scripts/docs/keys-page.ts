// The demo keys page: the mock's fixed demo API keys (from its keys module, never retyped here),
// their organisation and permissions, and which operations each permission opens (from the spec).
import { DEMO_KEYS, type KeySpec } from "../../mock/keys/demo-keys.js";
import { ORGANIZATION_PROFILES } from "../../mock/data/catalogue.js";
import { escapeHtml } from "./html.js";
import { renderPage, type SiteNav } from "./layout.js";
import { operationLink } from "./reference-links.js";
import type { OperationFact } from "./spec-facts.js";

function organisation(key: KeySpec): string {
  if (typeof key.organisation === "number") {
    const profile = ORGANIZATION_PROFILES[key.organisation - 1];
    return `${key.organisation}${profile ? ` — ${escapeHtml(profile.name)}` : ""}`;
  }
  return escapeHtml(key.organisation);
}

function callable(key: KeySpec, operations: OperationFact[]): string {
  const allowed = operations.filter((operation) => operation.permission !== undefined && key.permissions.includes(operation.permission));
  if (allowed.length === 0) return "none (every call is a 403)";
  if (allowed.length === operations.length) return `all ${operations.length} operations`;
  return allowed.map((operation) => `<a href="${escapeHtml(operationLink(operation))}"><code>${escapeHtml(operation.operationId)}</code></a>`).join(", ");
}

export function renderKeysPage({ operations, baseUrl, keys = DEMO_KEYS }: { operations: OperationFact[]; baseUrl: string; keys?: readonly KeySpec[] }, site: SiteNav): string {
  const rows = keys.map(
    (key) =>
      `<tr><td><code class="api-key">${escapeHtml(key.key)}</code></td><td>${organisation(key)}</td><td>${
        key.permissions.length ? key.permissions.map(escapeHtml).join("<br>") : "none"
      }</td><td>${escapeHtml(key.label)}</td><td>${callable(key, operations)}</td></tr>`,
  );
  const permissions = [...new Set(operations.map((operation) => operation.permission).filter((p): p is string => p !== undefined))];
  const permissionRows = permissions.map(
    (permission) =>
      `<tr><td>${escapeHtml(permission)}</td><td>${operations
        .filter((operation) => operation.permission === permission)
        .map((operation) => `<a href="${escapeHtml(operationLink(operation))}">${escapeHtml(operation.method)} <code>${escapeHtml(operation.path)}</code></a>`)
        .join("<br>")}</td></tr>`,
  );
  const example = keys.find((key) => permissions.every((permission) => key.permissions.includes(permission))) ?? keys[0];
  const sample = operations[0];
  const body = `
<h1>Demo keys</h1>
<p class="lead">The mock knows these API keys on every run and every seed. Each belongs to one of the dataset's two
organisations and carries a set of permissions, so every case can be tried at once: a call the key may make, a 403
for a missing permission, a 404 for another organisation's record, a 401 for an unknown key.</p>

<table class="keys stack"><thead><tr><th>Key</th><th>Organisation</th><th>Permissions</th><th>Who it is</th><th>Can call</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody></table>
<p class="muted">Organisation 1 and 2 are the first and second organisation of the mock's dataset, whatever the seed;
their ids change with the seed, their names do not. <code>Manage Webhooks</code> is the permission the provider names for the web
application's webhook settings; no read API operation needs it.</p>

<h2>Trying a key</h2>
${
  example && sample
    ? `<pre><code>curl -s -H "Authorization: Bearer ${escapeHtml(example.key)}" ${escapeHtml(baseUrl)}${escapeHtml(sample.path)}</code></pre>`
    : ""
}
<p>Start the mock first with <code>npm start</code>; it listens on <code>${escapeHtml(baseUrl)}</code> by default. More keys can be
given in a JSON file (<code>--keys FILE</code>).</p>

<h2>Permissions per operation</h2>
<table class="permissions"><thead><tr><th>Permission</th><th>Operations it opens</th></tr></thead>
<tbody>
${permissionRows.join("\n")}
</tbody></table>
`;
  return renderPage({ active: "keys.html", title: "Demo keys", body, site });
}
