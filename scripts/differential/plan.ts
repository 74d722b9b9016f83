// The requests of a differential run, made from the bundled specs: every read operation with its
// examples, every key, every kind of bad input the contract refuses, the methods and paths it does
// not have, `Prefer`; then the control API end to end (endpoints, triggers of every event type,
// deliveries, resends, sandboxes, faults, the journal, verify, coverage, Pact states), and the
// switches that change answers (failure status 200, a small rate limit, injected failures).
import { readFileSync } from "node:fs";
import { DEMO_KEY } from "../../mock/keys/demo-keys.js";
import { webhookEventTypes } from "../../generated/events.js";

export interface Step {
  name: string;
  method?: string;
  path: string;
  headers?: Array<[string, string]>;
  body?: unknown;
  /** Sent as it is, for what a well-formed request cannot say (two Authorization headers). */
  raw?: string;
  /** Values this side's answer gives later steps, as {{name}}. */
  capture?: Record<string, (json: any) => string | undefined>;
  /** Before the compared request, the metrics (never journaled) are polled until this holds of them. */
  until?: (metrics: string) => boolean;
  /** Compare the status only (an answer made of counters, such as the metrics). */
  statusOnly?: boolean;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema?: Record<string, unknown>;
}

const spec = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));
const bearer = (key: string): [string, string] => ["Authorization", `Bearer ${key}`];
const FULL = bearer(DEMO_KEY.org1Full);
const ADMIN = bearer(DEMO_KEY.org1WebhooksAdmin);
const JSON_BODY: [string, string] = ["Content-Type", "application/json"];

function resolveRef<T>(node: any): T {
  return node?.$ref ? node.$ref.split("/").slice(1).reduce((at: any, part: string) => at[part], spec) : node;
}

function operations() {
  const found: Array<{ method: string; path: string; id: string; parameters: Parameter[] }> = [];
  for (const [path, item] of Object.entries<any>(spec.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      if (!operation?.operationId) continue;
      found.push({ method, path, id: operation.operationId, parameters: (operation.parameters ?? []).map((p: unknown) => resolveRef<Parameter>(p)) });
    }
  }
  return found;
}

const query = (pairs: Array<[string, unknown]>) =>
  pairs.length === 0 ? "" : `?${pairs.flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${name}=${encodeURIComponent(String(v))}`)).join("&")}`;

/** Values a parameter of this schema must refuse. */
function badValues(parameter: Parameter): string[] {
  const schema = resolveRef<any>(parameter.schema) ?? {};
  const text = JSON.stringify(schema);
  // Just outside the spec's own bounds (PageSize's 1 and 100), a negative, a fraction, too large for any integer.
  const outside = [schema.minimum, schema.maximum].flatMap((bound, i) => (typeof bound === "number" ? [String(bound + (i === 0 ? -1 : 1))] : []));
  if (schema.type === "integer" || text.includes('"integer"')) return [...new Set(["abc", ...outside, "-1", "1.5", "99999999999999999999", ""])];
  if (schema.type === "boolean") return ["maybe", "1"];
  if (schema.type === "array") return ["not-a-uuid"];
  if (text.includes("uuid") || text.includes("Uuid")) return ["not-a-uuid", "00000000-0000-0000-0000-00000000000g"];
  if (parameter.name.endsWith("Date")) return ["2026-13-45", "yesterday"];
  if (text.includes("enum") || text.includes("anyOf") || text.includes("$ref")) return ["Nope", "6", "-1"];
  return ["x".repeat(300)];
}

function readSteps(): Step[] {
  const steps: Step[] = [];
  const idOf: Record<string, string> = { getLeaveRequest: "listLeaveRequests", getDepartment: "listDepartments" };
  for (const list of ["listLeaveRequests", "listDepartments", "listEmployees", "listLeaveTypes"]) {
    const path = operations().find((operation) => operation.id === list)!.path;
    steps.push({ name: `${list}: org 1's first id`, path: `${path}?PageSize=1`, headers: [FULL], capture: { [`${list}1`]: (json) => json?.data?.data?.[0]?.id } });
    steps.push({ name: `${list}: org 2's first id`, path: `${path}?PageSize=1`, headers: [bearer(DEMO_KEY.org2Full)], capture: { [`${list}2`]: (json) => json?.data?.data?.[0]?.id } });
  }
  for (const { method, path, id, parameters } of operations()) {
    const examples = parameters.filter((p) => p.in === "query").map((p): [string, unknown] => [p.name, p.example]);
    const required = parameters.filter((p) => p.in === "query" && p.required).map((p): [string, unknown] => [p.name, p.example]);
    const pathOf = (value: string) => path.replace(/\{id\}/, value);
    const own = idOf[id] ? pathOf(`{{${idOf[id]}1}}`) : path;
    const balance = id === "getLeaveBalance" ? "?EmployeeId={{listEmployees1}}&LeaveTypeId={{listLeaveTypes1}}" : query(required);
    const base = `${own}${balance}`;
    steps.push({ name: `${id}: every example`, path: `${pathOf(String(parameters.find((p) => p.in === "path")?.example ?? ""))}${query(examples)}`, headers: [FULL] });
    steps.push({ name: `${id}: a real record`, path: base, headers: [FULL] });
    for (const [name, key] of Object.entries(DEMO_KEY)) steps.push({ name: `${id}: key ${name}`, path: base, headers: [bearer(key)] });
    steps.push({ name: `${id}: no key`, path: base });
    steps.push({ name: `${id}: unknown key`, path: base, headers: [bearer("nope")] });
    steps.push({ name: `${id}: lower-case scheme, extra spaces`, path: base, headers: [["Authorization", `bearer   ${DEMO_KEY.org1Full}`]] });
    steps.push({ name: `${id}: Basic`, path: base, headers: [["Authorization", "Basic ZGVtbzpkZW1v"]] });
    steps.push({ name: `${id}: two Authorization headers`, path: base, raw: `GET ${base} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${DEMO_KEY.org1Full}\r\nAuthorization: Bearer ${DEMO_KEY.org2Full}\r\nConnection: close\r\n\r\n` });
    steps.push({ name: `${id}: unknown parameter`, path: `${base}${balance ? "&" : "?"}Foo=1`, headers: [FULL] });
    for (const parameter of parameters.filter((p) => p.in === "query")) {
      for (const bad of badValues(parameter)) {
        const rest = required.filter(([name]) => name !== parameter.name);
        steps.push({ name: `${id}: ${parameter.name}=${bad.slice(0, 20)}`, path: `${own}${query([...rest, [parameter.name, bad]])}`, headers: [FULL] });
      }
      steps.push({ name: `${id}: ${parameter.name} twice`, path: `${own}${query([...required, [parameter.name, [parameter.example, parameter.example].flat()]])}`, headers: [FULL] });
    }
    if (idOf[id]) {
      steps.push({ name: `${id}: unknown id`, path: pathOf("0b7e5c3e-8d2f-4c1a-9a57-000000000000"), headers: [FULL] });
      steps.push({ name: `${id}: another organisation's id`, path: pathOf(`{{${idOf[id]}2}}`), headers: [FULL] });
      steps.push({ name: `${id}: not a uuid`, path: pathOf("nope"), headers: [FULL] });
    }
    const pageSize = parameters.find((p) => p.in === "query" && p.name === "PageSize");
    if (pageSize) steps.push({ name: `${id}: a page past the end`, path: `${own}?PageSize=${resolveRef<any>(pageSize.schema).maximum}&PageNumber=9999`, headers: [FULL] });
    for (const prefer of ["code=404", "code=200", "code=429", "example=nope", "code=abc"]) steps.push({ name: `${id}: Prefer ${prefer}`, path: base, headers: [FULL, ["Prefer", prefer]] });
    // Prism's dynamic answers are random by design: their status is compared.
    steps.push({ name: `${id}: Prefer dynamic=true`, path: base, headers: [FULL, ["Prefer", "dynamic=true"]], statusOnly: true });
    for (const other of ["POST", "PUT", "DELETE", "PATCH", "HEAD"]) steps.push({ name: `${id}: ${other}`, method: other, path: base, headers: [FULL] });
    steps.push({ name: `${id}: preflight`, method: "OPTIONS", path: base, headers: [["Origin", "http://localhost:5173"], ["Access-Control-Request-Method", method.toUpperCase()], ["Access-Control-Request-Headers", "authorization"]] });
    steps.push({ name: `${id}: with an Origin`, path: base, headers: [FULL, ["Origin", "http://localhost:5173"]] });
    steps.push({ name: `${id}: again (cached)`, path: base, headers: [FULL] });
  }
  for (const [name, path] of [
    ["unknown path", "/v1/nope"],
    ["root", "/"],
    ["v1 root", "/v1/"],
    ["trailing slash", "/v1/department/list/"],
    ["bad escape", "/v1/department/list?SearchTerm=%zz"],
    ["long URL", `/v1/department/list?SearchTerm=${"a".repeat(9000)}`],
    ["docs", "/docs/"],
    ["control path unknown", "/_mock/nope"],
  ]) steps.push({ name, path, headers: [FULL] });
  // A path Prism routes after decoding it: its 405 names the methods of the decoded path.
  steps.push({ name: "POST to a percent-encoded path", method: "POST", path: "/v1/leave%72equest/list", headers: [FULL] });
  steps.push({ name: "GET a percent-encoded path", path: "/v1/leave%72equest/list?PageSize=1", headers: [FULL] });
  return steps;
}

function controlSteps(receiverUrl: string): Step[] {
  const post = (name: string, path: string, body: unknown, extra: Partial<Step> = {}): Step => ({ name, method: "POST", path, headers: [ADMIN, JSON_BODY], body, ...extra });
  const settled = (metrics: string) => /^hr_mock_webhook_deliveries_waiting 0$/m.test(metrics);
  return [
    { name: "health", path: "/_mock/health" },
    { name: "ready", path: "/_mock/ready" },
    { name: "metrics", path: "/_mock/metrics", statusOnly: true },
    { name: "endpoints: no key", path: "/_mock/webhooks/endpoints" },
    { name: "endpoints: leave-only key", path: "/_mock/webhooks/endpoints", headers: [bearer(DEMO_KEY.org1LeaveView)] },
    post("endpoint: add", "/_mock/webhooks/endpoints", { url: receiverUrl, description: "differential" }, { capture: { endpoint: (json) => json?.data?.id } }),
    post("endpoint: add, one event", "/_mock/webhooks/endpoints", { url: receiverUrl, events: ["leave.approved"] }),
    post("endpoint: not JSON", "/_mock/webhooks/endpoints", "{nope"),
    { name: "endpoint: text/plain", method: "POST", path: "/_mock/webhooks/endpoints", headers: [ADMIN, ["Content-Type", "text/plain"]], body: "x" },
    post("endpoint: no url", "/_mock/webhooks/endpoints", { description: "x" }),
    post("endpoint: ftp url", "/_mock/webhooks/endpoints", { url: "ftp://example.com/" }),
    post("endpoint: private address", "/_mock/webhooks/endpoints", { url: "https://10.0.0.5/" }),
    post("endpoint: unknown event", "/_mock/webhooks/endpoints", { url: receiverUrl, events: ["nope"] }),
    post("endpoint: too deep", "/_mock/webhooks/endpoints", JSON.parse(`${"[".repeat(20)}${"]".repeat(20)}`)),
    post("endpoint: too large", "/_mock/webhooks/endpoints", { url: receiverUrl, description: "x".repeat(70_000) }),
    { name: "endpoints: list", path: "/_mock/webhooks/endpoints", headers: [ADMIN] },
    post("endpoint: test", "/_mock/webhooks/endpoints/{{endpoint}}/test", {}),
    ...webhookEventTypes.map((type) => post(`trigger ${type}`, "/_mock/webhooks/events", { type }, { capture: { [`event_${type.replace(/\W/g, "_")}`]: (json) => json?.data?.event?.id } })),
    post("trigger: unknown type", "/_mock/webhooks/events", { type: "nope" }),
    post("trigger: org 2", "/_mock/webhooks/events", { type: "leave.requested" }, { headers: [bearer(DEMO_KEY.org2Full), JSON_BODY] }),
    { name: "deliveries (settled)", path: "/_mock/webhooks/deliveries?limit=100", headers: [ADMIN], until: settled },
    { name: "deliveries: bad limit", path: "/_mock/webhooks/deliveries?limit=0", headers: [ADMIN] },
    post("resend one", "/_mock/webhooks/events/{{event_leave_approved}}/resend", {}),
    post("resend unknown", "/_mock/webhooks/events/6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04/resend", {}),
    post("resend by filter, dry run", "/_mock/webhooks/events/resend", { state: "succeeded", dryRun: true }),
    { name: "deliveries after resend (settled)", path: "/_mock/webhooks/deliveries?limit=100", headers: [ADMIN], until: settled },
    { name: "leave requests after triggers", path: "/v1/leaverequest/list?PageSize=100&LeaveStatus=Approved", headers: [FULL] },
    { name: "data", path: "/_mock/data", headers: [ADMIN] },
    post("sandbox: create", "/_mock/sandboxes", { label: "differential" }, { capture: { sandbox: (json) => json?.data?.id, sbxFull: (json) => json?.data?.keys?.find((k: any) => k.demoKey === DEMO_KEY.org1Full)?.key } }),
    post("sandbox: bad body", "/_mock/sandboxes", { label: 5 }),
    { name: "sandboxes: list", path: "/_mock/sandboxes", headers: [ADMIN] },
    { name: "sandbox key: list leave requests", path: "/v1/leaverequest/list?PageSize=3", headers: [["Authorization", "Bearer {{sbxFull}}"]] },
    { name: "sandbox key: lower-case scheme", path: "/v1/leaverequest/list?PageSize=3", headers: [["Authorization", "bearer  {{sbxFull}}"]] },
    post("sandbox: reset", "/_mock/sandboxes/{{sandbox}}/reset", {}),
    post("fault: add", "/_mock/faults", { operation: "listLeaveRequests", status: 503, times: 1 }),
    post("fault: bad", "/_mock/faults", { operation: "nope", status: 99 }),
    { name: "faults: list", path: "/_mock/faults", headers: [ADMIN] },
    { name: "faulted request", path: "/v1/leaverequest/list?PageSize=1", headers: [ADMIN] },
    { name: "after the fault", path: "/v1/leaverequest/list?PageSize=1", headers: [ADMIN] },
    { name: "faults: clear", method: "DELETE", path: "/_mock/faults", headers: [ADMIN] },
    { name: "journal", path: "/_mock/requests?limit=50", headers: [ADMIN] },
    { name: "journal: filtered", path: "/_mock/requests?operationId=listLeaveRequests&status=400&limit=20", headers: [ADMIN] },
    { name: "journal: unmatched", path: "/_mock/requests?unmatched=true&limit=20", headers: [ADMIN] },
    { name: "journal: pact", path: "/_mock/requests?format=pact&consumer=differential", headers: [ADMIN] },
    { name: "journal: bad filter", path: "/_mock/requests?status=abc", headers: [ADMIN] },
    post("verify: holds", "/_mock/requests/verify", { filter: { operationId: "listDepartments" }, times: { atLeast: 1 } }),
    post("verify: fails", "/_mock/requests/verify", { filter: { operationId: "listLeaveRequests", query: { PageNumber: 2 } }, times: 1 }),
    { name: "coverage", path: "/_mock/coverage", headers: [ADMIN] },
    post("pact state", "/_mock/pact/provider-states", { action: "setup", state: "organisation 1 has a leave request", params: { key: "org 1, leave only", organisation: 1 } }),
    post("pact state: empty", "/_mock/pact/provider-states", {}),
    { name: "sandbox: delete", method: "DELETE", path: "/_mock/sandboxes/{{sandbox}}", headers: [ADMIN] },
    { name: "endpoint: remove", method: "DELETE", path: "/_mock/webhooks/endpoints/{{endpoint}}", headers: [ADMIN] },
    { name: "journal: clear", method: "DELETE", path: "/_mock/requests", headers: [ADMIN] },
    // Last, as its answer's ids are numbered after every other: a Prefer on a POST is the control
    // API's example, from one pass of Prism (before: a 400 naming the GET the route lacks).
    post("trigger: Prefer code=202", "/_mock/webhooks/events", { type: "leave.approved" }, { headers: [ADMIN, JSON_BODY, ["Prefer", "code=202"]] }),
  ];
}

export function requestPlan(receiverUrl: string): Array<{ name: string; args: string[]; steps: Step[]; redis?: boolean }> {
  const read = readSteps();
  const failures = read.filter((step) => /no key|unknown id|=Nope|: POST$|unknown path|key org1LeaveView/.test(step.name) || step.name.endsWith("org 1's first id") || step.name.endsWith("org 2's first id"));
  const repeated = (n: number): Step[] => Array.from({ length: n }, (_, i) => ({ name: `request ${i + 1}`, path: `/v1/department/list?PageSize=${i + 1}`, headers: [FULL] }));
  return [
    { name: "default", args: ["--rate-limit", "off"], steps: [...read, ...controlSteps(receiverUrl)] },
    { name: "rate limit 300", args: [], steps: read.slice(0, 60) },
    { name: "--failure-status 200", args: ["--failure-status", "200", "--rate-limit", "off"], steps: failures },
    { name: "--rate-limit 3", args: ["--rate-limit", "3"], steps: [...repeated(5), { name: "other key", path: "/v1/department/list", headers: [bearer(DEMO_KEY.org2Full)] }] },
    { name: "--fail-rate 0.5", args: ["--fail-rate", "0.5", "--seed", "7", "--rate-limit", "off"], steps: repeated(12) },
    // On Redis the record an event picks is not seeded (the previous main against itself differs): a trigger's status is compared.
    { name: "--state redis://", args: ["--rate-limit", "300"], steps: [...read.slice(0, 80), ...controlSteps(receiverUrl).map((step) => (step.name.startsWith("trigger ") ? { ...step, statusOnly: true } : step))], redis: true },
    { name: "--scale 3 --seed 9", args: ["--scale", "3", "--seed", "9", "--rate-limit", "off"], steps: read.filter((step) => /example|real record|past the end|first id/.test(step.name)) },
  ];
}
