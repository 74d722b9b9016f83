// Scripted faults of one world: "the next N calls of operation X answer status S", "answer X after
// D milliseconds", or both, until used up or cleared. Pure bookkeeping (no clock, no I/O); what a
// fault body may say beyond its schema (an operation of the read API, a status it declares) is
// checked here, once, from the spec's operations.
import { rateLimit } from "../../generated/facts.js";
import { failure, type Reply } from "../kernel/envelope.js";
import { covers, type SpecOperation } from "../kernel/spec.js";
import type { components } from "../../generated/control-api.js";

export interface FaultInput {
  operation: string;
  status?: number;
  delayMs?: number;
  times?: number;
}

/** A fault as the control API shows it. */
export type Fault = components["schemas"]["Fault"];

/** What a call meets: a status to answer instead, a delay, or both. */
export interface ScriptedAnswer {
  fault: Fault;
  status?: number;
  delayMs?: number;
}

export class FaultScript {
  private faults: Fault[] = [];

  constructor(private readonly max: number) {}

  /** Adds a checked fault; undefined when the world already holds `max`. */
  add(input: FaultInput): Fault | undefined {
    if (this.faults.length >= this.max) return undefined;
    const fault: Fault = { id: globalThis.crypto.randomUUID(), operation: input.operation, status: input.status ?? null, delayMs: input.delayMs ?? null, remaining: input.times ?? null };
    this.faults.push(fault);
    return { ...fault };
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** Removes every fault; answers them as they were. */
  clear(): Fault[] {
    const cleared = this.list();
    this.faults = [];
    return cleared;
  }

  /** The first fault of the operation, used once (a counted one goes when used up); undefined when none applies. */
  take(operationId: string): ScriptedAnswer | undefined {
    if (this.faults.length === 0) return undefined;
    const at = this.faults.findIndex((f) => f.operation === operationId);
    if (at < 0) return undefined;
    const fault = this.faults[at];
    if (fault.remaining !== null) {
      fault.remaining--;
      if (fault.remaining === 0) this.faults.splice(at, 1);
    }
    return { fault: { ...fault }, status: fault.status ?? undefined, delayMs: fault.delayMs ?? undefined };
  }

  get size(): number {
    return this.faults.length;
  }
}

/**
 * Why a fault body cannot be scripted (its schema already held): the operation must be one of the
 * read API's, the status one its responses declare ("5XX" allows 500 to 599) and not a success.
 */
export function faultProblem(input: FaultInput, operations: ReadonlyMap<string, SpecOperation>): { field: string; message: string } | undefined {
  const operation = operations.get(input.operation);
  if (!operation || operation.api !== "read") {
    const names = [...operations.values()].filter((op) => op.api === "read").map((op) => op.operationId);
    return { field: "operation", message: `${JSON.stringify(input.operation.slice(0, 100))} is not an operation of the read API; the operations are ${names.join(", ")}` };
  }
  const { status } = input;
  if (status !== undefined && (String(status).startsWith("2") || !operation.statuses.some((code) => covers(code, status)))) {
    const failures = operation.statuses.filter((s) => !s.startsWith("2"));
    return { field: "status", message: `${operation.operationId} does not declare status ${status}; its failure statuses are ${failures.join(", ")}` };
  }
  return undefined;
}

/** Values for the headers a failure's response declares, where the mock knows one. */
function headerValue(name: string, operation: SpecOperation, rateHeaders: Record<string, number> | undefined): string | number | undefined {
  switch (name.toLowerCase()) {
    case "www-authenticate":
      return "Bearer";
    case "allow":
      return operation.method === "GET" ? "GET, HEAD" : operation.method;
    case rateLimit.headers.retryAfter.toLowerCase():
      return 1;
    case rateLimit.headers.rateLimitLimit.toLowerCase():
      return rateHeaders?.[rateLimit.headers.rateLimitLimit];
    case rateLimit.headers.rateLimitRemaining.toLowerCase():
      return rateHeaders?.[rateLimit.headers.rateLimitRemaining];
    default:
      return undefined;
  }
}

/** The scripted failure: the envelope with the status, and the headers its response declares. */
export function faultReply(operation: SpecOperation, answer: ScriptedAnswer & { status: number }, rateHeaders: Record<string, number> | undefined): Reply {
  const code = String(answer.status);
  const response = operation.prism.responses.find((r) => r.code === code) ?? operation.prism.responses.find((r) => r.code.toUpperCase() === `${code[0]}XX`);
  const headers: Record<string, string | number> = {};
  for (const header of response?.headers ?? []) {
    const value = headerValue(header.name, operation, rateHeaders);
    if (value !== undefined) headers[header.name] = value;
  }
  const left = answer.fault.remaining === null ? "until the faults are cleared" : `${answer.fault.remaining} more call${answer.fault.remaining === 1 ? "" : "s"}`;
  const message = `Scripted fault: ${operation.operationId} answers ${answer.status} as POST /_mock/faults asked (${left}; DELETE /_mock/faults clears it).`;
  return { ...failure(answer.status, message, headers), holdMs: answer.delayMs };
}
