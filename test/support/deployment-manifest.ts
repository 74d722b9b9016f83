// The Kubernetes example's hr-mock container (examples/deploy/kubernetes/deployment.yaml): the one
// place its command line, port, probe paths and variables are written. The image test runs the
// image with them, and the Kubernetes test checks the manifests against the API's schema, so what a
// cluster would run is what the tests ran.
import fs from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";
import { repoRoot } from "../../scripts/lib/spec-document.js";

export const KUBERNETES_DIR = path.join(repoRoot, "examples", "deploy", "kubernetes");

/** Every document of every manifest in the folder, with the file it came from. */
export function kubernetesManifests(): { file: string; manifest: any }[] {
  return fs
    .readdirSync(KUBERNETES_DIR)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .flatMap((name) => parseAllDocuments(fs.readFileSync(path.join(KUBERNETES_DIR, name), "utf8")).map((doc) => ({ file: name, manifest: doc.toJS() })));
}

export interface ManifestVariable {
  name: string;
  /** A literal value. */
  value?: string;
  /** Or a key of a Secret. */
  secret?: { name: string; key: string };
}

export interface DeploymentContainer {
  deployment: any;
  container: any;
  args: string[];
  port: number;
  liveness: string;
  readiness: string;
  /** The container ports the probes name (by number or by the port's name). */
  probePorts: number[];
  env: ManifestVariable[];
}

/** The hr-mock container of the example's Deployment. */
export function deploymentContainer(): DeploymentContainer {
  const deployment = kubernetesManifests().find(({ manifest }) => manifest?.kind === "Deployment")?.manifest;
  if (!deployment) throw new Error(`no Deployment in ${KUBERNETES_DIR}`);
  const container = deployment.spec.template.spec.containers.find((c: any) => c.name === "hr-mock");
  if (!container) throw new Error("the Deployment has no container named hr-mock");
  const portNamed = (port: string | number) => (typeof port === "number" ? port : container.ports.find((p: any) => p.name === port).containerPort);
  return {
    deployment,
    container,
    args: container.args ?? [],
    port: container.ports[0].containerPort,
    liveness: container.livenessProbe.httpGet.path,
    readiness: container.readinessProbe.httpGet.path,
    probePorts: [portNamed(container.livenessProbe.httpGet.port), portNamed(container.readinessProbe.httpGet.port)],
    env: (container.env ?? []).map((v: any) => ({ name: v.name, value: v.value, secret: v.valueFrom?.secretKeyRef })),
  };
}
