// Admission: what every request of an operation meets before its answer, in one place for both
// ways an answer is made (Prism's mock component and the response cache): an injected failure
// (--fail-rate), the key, rate limit and permission (gate.ts), then the world's scripted faults.
// Read API operations only are failed, counted and faulted; the control API's are not.
import { failure, type Reply } from "../kernel/envelope.js";
import type { SpecOperation } from "../kernel/spec.js";
import { faultReply } from "../worlds/faults.js";
import type { ApiKey } from "../worlds/world.js";
import type { Gate } from "./gate.js";

/** Who asks: the Authorization header as sent, and the remote address (the throttle on failed authentication). */
export interface Caller {
  authorization: string | string[] | undefined;
  client?: string;
}

export type Admission =
  | { ok: true; apiKey: ApiKey; rateHeaders?: Record<string, number>; caller: string; holdMs?: number }
  | { ok: false; reply: Reply & { caller?: string } };

export interface AdmissionOptions {
  gate: Gate;
  /** Probability 0..1 of answering a read API operation with an injected 503. */
  failRate: number;
  random: () => number;
}

export type Admit = (operation: SpecOperation, caller: Caller) => Admission;

export function createAdmission({ gate, failRate, random }: AdmissionOptions): Admit {
  return (operation, { authorization, client }) => {
    const read = operation.api === "read";
    if (read && failRate > 0 && random() < failRate) return { ok: false, reply: failure(503, "Service unavailable: injected failure (--fail-rate); retry with backoff.") };
    // The control API's document: its calls do not count against the read API's rate limit.
    const admitted = gate.admit(authorization, operation.permission, read, client);
    if (!admitted.ok) return { ok: false, reply: { ...admitted.reply, caller: admitted.caller } };
    const { apiKey, rateHeaders } = admitted;
    const caller = apiKey.label;
    // The world's scripted faults: a status instead of the answer, or the answer late.
    const scripted = read ? apiKey.world.faults.take(operation.operationId) : undefined;
    if (scripted?.status !== undefined) return { ok: false, reply: { ...faultReply(operation, { ...scripted, status: scripted.status }, rateHeaders), caller } };
    return { ok: true, apiKey, rateHeaders, caller, holdMs: scripted?.delayMs };
  };
}
