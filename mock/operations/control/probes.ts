// The probes of the control API, answered without a key: GET /_mock/health says the process answers
// (asking nothing of the state store); GET /_mock/ready, whether the replica may take traffic: its
// dataset built, its store reached since it started, not stopping (app/start-mock.ts reports these).
// A store lost after it was reached leaves the replica ready (every replica would leave the balancer
// at once), and the answer's data says so.
import type { components } from "../../../generated/control-api.js";
import type { OperationResult } from "../operation.js";

export type Readiness = components["schemas"]["Readiness"];
export type Health = components["schemas"]["Health"];

/** What the running mock reports for the probes. */
export interface ProbeSource {
  /** Seconds since the process started. */
  uptimeSeconds(): number;
  readiness(): Readiness;
}

/** Keyless operations by operationId: they receive nothing of a key or a world. */
export type KeylessTable = Readonly<Record<string, () => OperationResult>>;

export type ReadinessFacts = Pick<Readiness, "stopping" | "store"> & { datasetBuilt: boolean };

/** The readiness of a replica from its facts: ready when built, its store reached once, and not stopping. */
export function readinessOf({ datasetBuilt, stopping, store }: ReadinessFacts): Readiness {
  return { ready: datasetBuilt && store.reached && !stopping, dataset: datasetBuilt ? "built" : "building", stopping, store };
}

/** Why a replica is not ready, in one sentence of the envelope's message ("Not ready: …."); undefined when it is. */
export function notReadyMessage(readiness: Readiness): string | undefined {
  if (readiness.ready) return undefined;
  const missing = [
    readiness.stopping && "this replica is stopping; it serves what reaches it during its drain, then closes",
    readiness.dataset !== "built" && "its dataset is not built yet",
    !readiness.store.reached && `the state store ${readiness.store.address ?? readiness.store.kind} has not been reached since this replica started`,
  ].filter((reason): reason is string => typeof reason === "string");
  return `Not ready: ${missing.join("; ")}.`;
}

export function probeOperations(probes: ProbeSource): KeylessTable {
  return {
    getHealth: () => ({ ok: true, data: { alive: true, uptimeSeconds: Math.round(probes.uptimeSeconds() * 1000) / 1000 } satisfies Health }),
    getReadiness: () => {
      const readiness = probes.readiness();
      const message = notReadyMessage(readiness);
      return message === undefined ? { ok: true, data: readiness } : { ok: false, kind: "unavailable", message };
    },
  };
}
