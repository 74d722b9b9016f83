// The control API's own OpenAPI document (mock/control/openapi/; linted with the others in
// test/spec/lint.test.ts): its event types are the catalogue's, and the operations the request
// pipeline answers are the document's operations.
import { describe, expect, test } from "vitest";
import { webhookEventTypes } from "../../generated/events.js";
import controlDocument from "../../generated/control-openapi.json" with { type: "json" };
import { probeOperations } from "../../mock/operations/control/probes.js";
import { controlOperations } from "../../mock/operations/control/index.js";
import { createDataset } from "../../mock/data/dataset.js";
import { DEMO_KEYS } from "../../mock/keys/demo-keys.js";
import { loadSpec } from "../../mock/kernel/spec.js";
import { Worlds } from "../../mock/worlds/world.js";
import { WebhookEngine } from "../../mock/webhooks/engine.js";
import { triggerSubjects } from "../../generated/control-facts.js";

const document = controlDocument as any;

describe("mock/control/openapi/", () => {
  test("EventType lists exactly the catalogue's event types", () => {
    expect([...document.components.schemas.EventType.enum].sort()).toEqual([...webhookEventTypes].sort());
  });

  test("every operation is answered and needs Manage Webhooks, but the probes, which need no key; every path is under /_mock/", async () => {
    const dataset = createDataset({ seed: 1, scale: 0.1 });
    const engine = new WebhookEngine(dataset, { onError: () => {} });
    const worlds = new Worlds({ start: dataset, keys: DEMO_KEYS, sandboxKeys: DEMO_KEYS, rateLimit: "off", defaultWebhooks: engine.service });
    const declared = Object.values<any>(document.paths).flatMap((item) => Object.values<any>(item).map((op) => op.operationId));
    const probes = probeOperations({ uptimeSeconds: () => 0, readiness: () => ({ ready: true, dataset: "built", stopping: false, store: { kind: "memory", reached: true, reachable: true } }) });
    const tables = [...Object.keys(controlOperations(worlds, (await loadSpec()).byOperationId)), ...Object.keys(probes)];
    expect(tables.sort(), "the tables answer exactly the document's operations").toEqual(declared.sort());
    await engine.close();
    for (const [path, item] of Object.entries<any>(document.paths)) {
      expect(path).toMatch(/^\/_mock\//);
      for (const operation of Object.values<any>(item)) {
        const keyless = operation.operationId in probes;
        expect(operation["x-permission"], path).toBe(keyless ? "none" : "Manage Webhooks");
        expect(operation.security, `${path}: a probe has no security, every other operation the document's`).toEqual(keyless ? [] : undefined);
      }
    }
  });

  test("the trigger operation's table names what id means for every event type, as the engine does", () => {
    const description: string = document.paths["/_mock/webhooks/events"].post.description;
    for (const type of webhookEventTypes) {
      expect(description, type).toContain(`| \`${type}\` |`);
      expect(triggerSubjects[type], `${type}: what id names, read from the table`).toMatch(/^(an? |the )/);
    }
  });
});
