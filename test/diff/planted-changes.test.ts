// The breaking-change check as a specification: each case plants one small edit in a copy of the
// real bundled documents (generated/openapi.json and asyncapi.json) and states how the diff must
// judge it. Read-API cases judge what breaks a client; webhook and event cases judge what breaks a
// receiver (the direction is reversed: the provider sends, the receiver parses), including the
// webhook changes oasdiff does not look at (OpenAPI 3.1 `webhooks`).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { compareContracts } from "../../mock/diff/compare.js";
import type { ChangeKind, ChangeScope, Contract } from "../../mock/diff/contract.js";

const root = path.resolve(import.meta.dirname, "../..");
const real: Contract = {
  label: "real",
  openapi: JSON.parse(fs.readFileSync(path.join(root, "generated/openapi.json"), "utf8")),
  asyncapi: JSON.parse(fs.readFileSync(path.join(root, "generated/asyncapi.json"), "utf8")),
};

type Docs = { openapi: any; asyncapi: any };
type Want =
  | { kind: ChangeKind; scope: ChangeScope; about: string }
  | { assumption: "added" | "removed" | "reworded"; document: "OpenAPI" | "AsyncAPI" };

const schema = (docs: Docs, doc: "openapi" | "asyncapi", name: string) => docs[doc].components.schemas[name];
const webhookOp = (docs: Docs, name: string) => docs.openapi.webhooks[name].post;
const channelMessages = (docs: Docs) => docs.asyncapi.channels.webhookEndpoint.messages;
/** Applies `edit` to every object of the document holding `key`: the bundles copy shared parts (traits) into each message. */
function everywhere(node: any, key: string, edit: (holder: any) => void): void {
  if (node === null || typeof node !== "object") return;
  if (key in node) edit(node);
  for (const child of Object.values(node)) everywhere(child, key, edit);
}
const removeField = (s: any, field: string) => {
  delete s.properties[field];
  s.required = (s.required ?? []).filter((name: string) => name !== field);
};

const CASES: Array<[string, { edit: (docs: Docs) => void; want: Want }]> = [
  // Read API: what breaks a client.
  ["an operation is removed", { edit: (d) => delete d.openapi.paths["/v1/leavetype/list"], want: { kind: "breaking", scope: "read API", about: "GET /v1/leavetype/list: operation removed" } }],
  ["a path is renamed", { edit: (d) => { d.openapi.paths["/v1/leavetypes"] = d.openapi.paths["/v1/leavetype/list"]; delete d.openapi.paths["/v1/leavetype/list"]; }, want: { kind: "breaking", scope: "read API", about: "GET /v1/leavetype/list: operation removed" } }],
  ["a query parameter is removed", { edit: (d) => { const op = d.openapi.paths["/v1/leaverequest/list"].get; op.parameters = op.parameters.filter((p: any) => p.$ref !== "#/components/parameters/LeaveRequestSearchTerm"); }, want: { kind: "breaking", scope: "read API", about: "query parameter SearchTerm: parameter removed" } }],
  ["a query parameter is renamed", { edit: (d) => { d.openapi.components.parameters.PageSize.name = "Limit"; }, want: { kind: "breaking", scope: "read API", about: "query parameter PageSize: parameter removed" } }],
  ["an optional parameter becomes required", { edit: (d) => { d.openapi.components.parameters.PageSize.required = true; }, want: { kind: "breaking", scope: "read API", about: "query parameter PageSize: now required" } }],
  ["a request enum is narrowed", { edit: (d) => { schema(d, "openapi", "LeaveStatusName").enum.pop(); }, want: { kind: "breaking", scope: "read API", about: "query parameter LeaveStatus: value: enum value \"Expired\" removed" } }],
  ["the largest PageSize is lowered", { edit: (d) => { d.openapi.components.parameters.PageSize.schema.maximum = 50; }, want: { kind: "breaking", scope: "read API", about: "PageSize: value: maximum 100 → 50" } }],
  ["a new optional query parameter", { edit: (d) => { d.openapi.paths["/v1/department/list"].get.parameters.push({ name: "Region", in: "query", schema: { type: "string" } }); }, want: { kind: "non-breaking", scope: "read API", about: "GET /v1/department/list · query parameter Region: parameter added" } }],
  ["the largest PageSize is raised", { edit: (d) => { d.openapi.components.parameters.PageSize.schema.maximum = 200; }, want: { kind: "non-breaking", scope: "read API", about: "PageSize: value: maximum 100 → 200" } }],
  ["a response field is removed", { edit: (d) => removeField(schema(d, "openapi", "LeaveRequestSummary"), "comments"), want: { kind: "breaking", scope: "read API", about: "field `data.data[].comments` removed" } }],
  ["a response field changes type", { edit: (d) => { schema(d, "openapi", "LeaveRequestSummary").properties.days.type = "string"; }, want: { kind: "breaking", scope: "read API", about: "`data.data[].days`: type \"integer\" → \"string\"" } }],
  ["a response enum is widened", { edit: (d) => { schema(d, "openapi", "DepartmentStatus").enum.push("Archived"); }, want: { kind: "breaking", scope: "read API", about: "enum value \"Archived\" added" } }],
  ["a new required response field", { edit: (d) => { const s = schema(d, "openapi", "LeaveType"); s.properties.colour = { type: "string" }; s.required.push("colour"); }, want: { kind: "breaking", scope: "read API", about: "required field `data.data[].colour` added" } }],
  ["a new optional response field", { edit: (d) => { schema(d, "openapi", "LeaveType").properties.colour = { type: "string" }; }, want: { kind: "non-breaking", scope: "read API", about: "field `data.data[].colour` added" } }],
  ["a required response field becomes optional", { edit: (d) => { const s = schema(d, "openapi", "LeaveRequestSummary"); s.required = s.required.filter((f: string) => f !== "days"); }, want: { kind: "breaking", scope: "read API", about: "`data.data[].days` no longer required" } }],
  ["a documented failure status is removed", { edit: (d) => { delete d.openapi.paths["/v1/department/{id}"].get.responses["404"]; }, want: { kind: "breaking", scope: "read API", about: "GET /v1/department/{id} · response 404: response removed" } }],
  ["an operation's description is reworded", { edit: (d) => { d.openapi.paths["/v1/employee/list"].get.description += " Reworded."; }, want: { kind: "info", scope: "read API", about: "GET /v1/employee/list" } }],
  ["a parameter's example changes", { edit: (d) => { d.openapi.components.parameters.PageSize.example = 30; }, want: { kind: "info", scope: "read API", about: "query parameter PageSize: example 25 → 30" } }],
  ["a field's example changes", { edit: (d) => { schema(d, "openapi", "LeaveRequestSummary").properties.days.example = 5; }, want: { kind: "info", scope: "read API", about: "`data.data[].days`: example 4 → 5" } }],

  // OpenAPI webhooks: what breaks a receiver (oasdiff does not compare these).
  ["a webhook is removed", { edit: (d) => delete d.openapi.webhooks["leave.rejected"], want: { kind: "breaking", scope: "webhooks", about: "webhook leave.rejected: webhook removed" } }],
  ["a webhook is added", { edit: (d) => { d.openapi.webhooks["leave.extended"] = structuredClone(d.openapi.webhooks["leave.rejected"]); }, want: { kind: "non-breaking", scope: "webhooks", about: "webhook leave.extended: webhook added" } }],
  ["a webhook data field is removed", { edit: (d) => removeField(schema(d, "openapi", "LeaveApprovedData"), "leaveType"), want: { kind: "breaking", scope: "webhooks", about: "webhook leave.approved: field `body.data.leaveType` removed" } }],
  ["a webhook data field is retyped", { edit: (d) => { schema(d, "openapi", "LeaveApprovedData").properties.leaveType.type = "integer"; }, want: { kind: "breaking", scope: "webhooks", about: "`body.data.leaveType`: type \"string\" → \"integer\"" } }],
  ["a webhook's fixed status changes", { edit: (d) => { schema(d, "openapi", "LeaveApprovedData").properties.status.const = "Accepted"; }, want: { kind: "breaking", scope: "webhooks", about: "`body.data.status`: const \"Approved\" → \"Accepted\"" } }],
  ["a webhook enum gains a value a receiver switches on", { edit: (d) => { schema(d, "openapi", "ApprovalCompletedData").properties.status.enum.push("Escalated"); }, want: { kind: "breaking", scope: "webhooks", about: "webhook approval.completed: `body.data.status`: enum value \"Escalated\" added" } }],
  ["a webhook data field is added, optional", { edit: (d) => { schema(d, "openapi", "LeaveRejectedData").properties.reason = { type: "string" }; }, want: { kind: "non-breaking", scope: "webhooks", about: "webhook leave.rejected: field `body.data.reason` added" } }],
  ["a webhook data field is added, required", { edit: (d) => { const s = schema(d, "openapi", "LeaveRejectedData"); s.properties.reason = { type: "string" }; s.required.push("reason"); }, want: { kind: "breaking", scope: "webhooks", about: "webhook leave.rejected: required field `body.data.reason` added" } }],
  ["the signature header's format changes", { edit: (d) => { schema(d, "openapi", "Service-Signature").pattern = "^t=[0-9]+(,v2=[0-9a-f]{64})+$"; }, want: { kind: "breaking", scope: "webhooks", about: "`headers.Service-Signature`: pattern" } }],
  ["a delivery header is dropped", { edit: (d) => { const op = webhookOp(d, "leave.approved"); op.parameters = op.parameters.filter((p: any) => !p.$ref.endsWith("ServiceDeliveryIdHeader")); }, want: { kind: "breaking", scope: "webhooks", about: "webhook leave.approved: field `headers.Service-Delivery-Id` removed" } }],
  ["a receiver answer is no longer documented", { edit: (d) => { delete webhookOp(d, "leave.approved").responses["400"]; }, want: { kind: "breaking", scope: "webhooks", about: "webhook leave.approved: receiver answer 400 no longer documented" } }],
  ["a webhook's permission note changes", { edit: (d) => { webhookOp(d, "leave.approved")["x-permission"] = "Manage Integrations"; }, want: { kind: "info", scope: "webhooks", about: "webhook leave.approved: x-permission changed" } }],
  ["a webhook data field's description is reworded", { edit: (d) => { schema(d, "openapi", "LeaveApprovedData").properties.leaveType.description = "The leave type's name."; }, want: { kind: "info", scope: "webhooks", about: "webhook leave.approved: `body.data.leaveType`: description" } }],

  // AsyncAPI events: what breaks a receiver.
  ["an event type is removed", { edit: (d) => { delete channelMessages(d).leaveRejected; }, want: { kind: "breaking", scope: "events", about: "event leave.rejected: event removed" } }],
  ["an event type is added", { edit: (d) => { channelMessages(d).leaveExtended = { ...structuredClone(channelMessages(d).leaveRejected), name: "leave.extended" }; }, want: { kind: "non-breaking", scope: "events", about: "event leave.extended: event added" } }],
  ["an event data field is removed", { edit: (d) => removeField(schema(d, "asyncapi", "EmployeeCreatedData"), "employeeId"), want: { kind: "breaking", scope: "events", about: "event employee.created: field `body.data.employeeId` removed" } }],
  ["an event enum gains a value", { edit: (d) => { schema(d, "asyncapi", "ApprovalCompletedData").properties.status.enum.push("Escalated"); }, want: { kind: "breaking", scope: "events", about: "event approval.completed: `body.data.status`: enum value \"Escalated\" added" } }],
  ["an event data field is added, optional", { edit: (d) => { schema(d, "asyncapi", "LeaveRejectedData").properties.reason = { type: "string" }; }, want: { kind: "non-breaking", scope: "events", about: "event leave.rejected: field `body.data.reason` added" } }],
  ["the signature header's format changes in the delivery trait", { edit: (d) => everywhere(d.asyncapi, "Service-Signature", (holder) => { if (holder["Service-Signature"]?.pattern) holder["Service-Signature"].pattern = "^v2=[0-9a-f]{64}$"; }), want: { kind: "breaking", scope: "events", about: "`headers.Service-Signature`: pattern" } }],
  ["the signature tolerance changes", { edit: (d) => { d.asyncapi.operations.sendWebhookEvent["x-signature-tolerance-seconds"] = 60; }, want: { kind: "breaking", scope: "events", about: "operation sendWebhookEvent: x-signature-tolerance-seconds changed 300 → 60" } }],
  ["receivers get longer to answer", { edit: (d) => { d.asyncapi.operations.sendWebhookEvent["x-response-timeout-seconds"] = 30; }, want: { kind: "non-breaking", scope: "events", about: "x-response-timeout-seconds changed 10 → 30" } }],
  ["the delivery's HTTP method changes", { edit: (d) => { d.asyncapi.operations.sendWebhookEvent.bindings.http.method = "PUT"; }, want: { kind: "breaking", scope: "events", about: "operation sendWebhookEvent: bindings.http.method changed \"POST\" → \"PUT\"" } }],
  ["the AsyncAPI document's version changes", { edit: (d) => { d.asyncapi.info.version = "1.1.0"; }, want: { kind: "info", scope: "events", about: "info: version changed" } }],
  ["an event's description is reworded", { edit: (d) => { channelMessages(d).leaveApproved.description += " Reworded."; }, want: { kind: "info", scope: "events", about: "event leave.approved: description changed" } }],

  // Assumptions: listed apart, so a guess that becomes a documented fact is seen.
  ["an assumption is reworded", { edit: (d) => { d.openapi.components.parameters.PageSize["x-assumption"] = "The largest PageSize is 200."; }, want: { assumption: "reworded", document: "OpenAPI" } }],
  ["an assumption becomes a documented fact", { edit: (d) => { delete d.asyncapi.operations.sendWebhookEvent["x-assumption"]; }, want: { assumption: "removed", document: "AsyncAPI" } }],
  ["an assumption is added", { edit: (d) => { schema(d, "openapi", "LeaveType").properties.name["x-assumption"] = "Names are unique per organisation."; }, want: { assumption: "added", document: "OpenAPI" } }],
];

const RANK = { breaking: 2, "non-breaking": 1, info: 0 } as const;

describe.each(CASES)("%s", (name, { edit, want }) => {
  test(`is judged ${"kind" in want ? `${want.kind} (${want.scope})` : `an assumption ${want.assumption}`}`, () => {
    const head = structuredClone({ openapi: real.openapi, asyncapi: real.asyncapi });
    edit(head);
    const diff = compareContracts(real, { label: name, ...head });
    const lines = diff.changes.map((change) => `${change.kind}: ${change.id}`);
    if ("assumption" in want) {
      expect(diff.assumptions.map((a) => `${a.change} ${a.document}`), `${name}: assumption changes`).toEqual([`${want.assumption} ${want.document}`]);
      expect(lines, `${name}: an assumption edit is no contract change`).toEqual([]);
      return;
    }
    const found = diff.changes.filter((change) => change.scope === want.scope && change.kind === want.kind && change.id.includes(want.about));
    expect(found.length, `${name}: no ${want.kind} change in ${want.scope} naming "${want.about}"; the diff listed:\n${lines.join("\n")}`).toBeGreaterThan(0);
    // The verdict of the whole diff is its worst change: nothing may be judged worse than wanted.
    const worst = diff.changes.reduce((max, change) => Math.max(max, RANK[change.kind]), 0);
    expect(worst, `${name}: a change judged worse than ${want.kind}:\n${lines.join("\n")}`).toBe(RANK[want.kind]);
  });
});

test("identical contracts have no change", () => {
  const diff = compareContracts(real, { ...real, label: "same" });
  expect(diff.changes, "changes between a contract and itself").toEqual([]);
  expect(diff.assumptions, "assumption changes between a contract and itself").toEqual([]);
});
