// The control API's own OpenAPI document (mock/control/openapi.yaml): lint-clean under the house
// rules that fit it, its event types are the catalogue's, and the routes the handler serves are
// the document's operations.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { webhookEventTypes } from "../../generated/events.js";
import { controlSpec } from "../../mock/control/spec.js";
import { SUBJECTS } from "../../mock/webhooks/triggers.js";
import { repoRoot } from "../support/spec.js";

const document = controlSpec().document;

describe("mock/control/openapi.yaml", () => {
  test("redocly lint: no errors, no warnings (the read API's operationId verbs and 429 rule do not apply to this write API)", () => {
    const run = spawnSync(
      join(repoRoot, "node_modules", ".bin", "redocly"),
      ["lint", "mock/control/openapi.yaml", "--format=json", "--skip-rule", "rule/operation-id-verb", "--skip-rule", "rule/shared-failure-responses"],
      { cwd: repoRoot, encoding: "utf8", env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", CI: "true", NO_COLOR: "1" } },
    );
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf("{")));
    const problems = (report.problems ?? []).map((p: any) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  test("EventType lists exactly the catalogue's event types", () => {
    expect([...document.components.schemas.EventType.enum].sort()).toEqual([...webhookEventTypes].sort());
  });

  test("every operation is served and needs Manage Webhooks; every path is under /_mock/", () => {
    const routes = controlSpec().routes;
    expect(routes.map((r) => r.operationId).sort()).toEqual([
      "addWebhookEndpoint",
      "listWebhookDeliveries",
      "listWebhookEndpoints",
      "removeWebhookEndpoint",
      "testWebhookEndpoint",
      "triggerWebhookEvent",
    ]);
    for (const [path, item] of Object.entries<any>(document.paths)) {
      expect(path).toMatch(/^\/_mock\//);
      for (const operation of Object.values<any>(item)) expect(operation["x-permission"], path).toBe("Manage Webhooks");
    }
  });

  test("the trigger operation's table names what id means for every event type, as the engine does", () => {
    const description: string = document.paths["/_mock/webhooks/events"].post.description;
    for (const type of webhookEventTypes) {
      expect(description, type).toContain(`| \`${type}\` |`);
      expect(SUBJECTS[type], type).toBeDefined();
    }
  });
});
