// The Kubernetes example (examples/deploy/kubernetes/): every manifest valid against the Kubernetes
// API's schema (kubernetes-models), and the Deployment's hr-mock container consistent with the
// image and the mock: the image test (image.test.ts) runs this container's command line, variables,
// port and probe paths from the same file (test/support/deployment-manifest.ts), so here only what
// it cannot run is checked: names the mock knows, the Secret, the drain, the security settings and
// the objects that must fit together.
import fs from "node:fs";
import path from "node:path";
import { Deployment } from "kubernetes-models/apps/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { Service } from "kubernetes-models/v1";
import { describe, expect, test } from "vitest";
import { SERVE_FLAGS } from "../../mock/cli/commands/serve.js";
import { envName } from "../../mock/cli/flag-env.js";
import { REDIS_PASSWORD_VARIABLE } from "../../mock/cli/redis-password.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { deploymentContainer, kubernetesManifests } from "../support/deployment-manifest.js";

/** The kinds the example holds, each with the model that validates it. */
const MODELS: Record<string, { validate(value: unknown): void }> = {
  "apps/v1 Deployment": { validate: (value) => new Deployment(value as never).validate() },
  "v1 Service": { validate: (value) => new Service(value as never).validate() },
  "policy/v1 PodDisruptionBudget": { validate: (value) => new PodDisruptionBudget(value as never).validate() },
};

const manifests = kubernetesManifests();
const planned = deploymentContainer();
const pod = planned.deployment.spec.template.spec;
const byKind = (kind: string) => manifests.filter(({ manifest }) => manifest.kind === kind).map(({ manifest }) => manifest);
const controlPaths = Object.keys(JSON.parse(fs.readFileSync(path.join(repoRoot, "generated", "control-openapi.json"), "utf8")).paths);
const containerfile = fs.readFileSync(path.join(repoRoot, "Containerfile"), "utf8");

describe("the Kubernetes example", () => {
  test.each(manifests.map(({ file, manifest }) => [`${file}: ${manifest.kind} ${manifest.metadata?.name}`, manifest] as const))("%s is valid against the Kubernetes API's schema", (_name, manifest) => {
    const model = MODELS[`${manifest.apiVersion} ${manifest.kind}`];
    expect(model, `a model for ${manifest.apiVersion} ${manifest.kind}`).toBeDefined();
    expect(() => model.validate(manifest)).not.toThrow();
  });

  test("holds a Deployment of two or more replicas, a Service and a PodDisruptionBudget, fitting together", () => {
    expect(planned.deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    const labels = planned.deployment.spec.template.metadata.labels;
    const selects = (selector: Record<string, string>) => Object.entries(selector).every(([key, value]) => labels[key] === value);
    const [service] = byKind("Service");
    expect(selects(service.spec.selector), "the Service selects the Deployment's pods").toBe(true);
    expect(planned.container.ports.map((p: { name: string }) => p.name), "the Service's target port is the container's").toContain(service.spec.ports[0].targetPort);
    const [budget] = byKind("PodDisruptionBudget");
    expect(selects(budget.spec.selector.matchLabels), "the budget selects the Deployment's pods").toBe(true);
    expect(budget.spec.minAvailable, "a disruption leaves a replica, and can still happen").toBeLessThan(planned.deployment.spec.replicas);
    expect(budget.spec.minAvailable).toBeGreaterThanOrEqual(1);
  });

  test("probes the mock's own health and readiness operations, on the container's port", () => {
    expect([planned.liveness, planned.readiness]).toEqual(["/_mock/health", "/_mock/ready"]);
    for (const probe of [planned.liveness, planned.readiness]) expect(controlPaths, `${probe} in the control API's OpenAPI`).toContain(probe);
    expect(planned.probePorts).toEqual([planned.port, planned.port]);
    // The image listens on its HR_MOCK_PORT unless the manifest gives another.
    const imagePort = Number(/^\s+HR_MOCK_PORT=(\d+)$/m.exec(containerfile)?.[1]);
    expect(Number(planned.env.find((v) => v.name === "HR_MOCK_PORT")?.value ?? imagePort), "the port the mock listens on").toBe(planned.port);
    expect(containerfile, "the image's HEALTHCHECK asks the liveness path").toMatch(new RegExp(`HEALTHCHECK[^\\n]*\\n[^\\n]*${planned.liveness}`));
  });

  test("gives settings only as variables serve reads, the Redis password from a Secret", () => {
    const known = new Set([...Object.keys(SERVE_FLAGS).map(envName), REDIS_PASSWORD_VARIABLE]);
    for (const variable of planned.env) expect(known, `${variable.name} is a variable of hr-mock serve`).toContain(variable.name);
    expect(planned.args[0] ?? "serve").toBe("serve");
    expect(planned.args.slice(1), "settings as variables, none on the command line").toEqual([]);
    expect(planned.env.find((v) => v.name === REDIS_PASSWORD_VARIABLE)?.secret, "the password from a Secret").toMatchObject({ name: expect.any(String), key: expect.any(String) });
    const state = new URL(planned.env.find((v) => v.name === "HR_MOCK_STATE")?.value ?? "");
    expect(state.protocol).toBe("redis:");
    expect(state.password, "no password in the Redis URL").toBe("");
    // A Service named hr-mock would put HR_MOCK_PORT=tcp://… into the pod's environment.
    expect(pod.enableServiceLinks).toBe(false);
  });

  test("lets a replica drain within its grace period, with no preStop hook adding to it", () => {
    const drain = Number(planned.env.find((v) => v.name === "HR_MOCK_DRAIN")?.value);
    expect(drain, "HR_MOCK_DRAIN, in seconds, given in the manifest").toBeGreaterThan(0);
    expect(planned.container.lifecycle?.preStop, "the mock drains itself on SIGTERM").toBeUndefined();
    // The drain, a request's longest answer (the example nginx's proxy_read_timeout is 30 s; a
    // probe's period is shorter) and the hand-back to Redis: more than twice the drain, at least.
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(drain * 2 + 10);
    const readiness = planned.container.readinessProbe;
    expect(readiness.periodSeconds * readiness.failureThreshold, "the readiness probe sees the 503 before the drain ends").toBeLessThan(drain);
  });

  test("runs as non-root on a read-only root filesystem, with memory requests and limits", () => {
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(planned.container.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(planned.container.securityContext.allowPrivilegeEscalation).toBe(false);
    expect(planned.container.resources.requests.memory).toMatch(/^\d+Mi$/);
    expect(planned.container.resources.limits.memory).toMatch(/^\d+Mi$/);
  });
});
