// A sandbox as callers hold it (startMock's createSandbox in process, createRemoteSandbox over
// HTTP): the control API's view, its keys by demo key name, its journal, reset and delete; and the
// error its control calls reject with. Light on purpose: the Playwright fixture loads it without the mock.
import { controlAnswer, type ControlClient } from "../kernel/control-client.js";
import { DEMO_KEY } from "../keys/demo-keys.js";
import type { SandboxView } from "../operations/control/sandboxes.js";
import type { JournalAccess } from "./journal-access.js";

/** A sandbox as startMock's createSandbox answers it: the control API's view, its keys by demo key, its own control calls and its journal. */
export interface MockSandbox extends SandboxView, JournalAccess {
  /** The sandbox's key standing for each demo key: `sandbox.key.org1Full`. */
  key: { [K in keyof typeof DEMO_KEY]: string };
  /** Back to the start state (POST /_mock/sandboxes/{id}/reset). */
  reset(): Promise<void>;
  /** Deletes it (DELETE /_mock/sandboxes/{id}). */
  delete(): Promise<void>;
}

/** A sandbox's keys by the name of the demo key each stands for: `key.org1Full`. */
export function sandboxKeyNames(view: SandboxView): MockSandbox["key"] {
  return Object.fromEntries(Object.entries(DEMO_KEY).map(([name, demo]) => [name, view.keys.find((k) => k.demoKey === demo)?.key])) as MockSandbox["key"];
}

/** A control API refusal of a sandbox call (in process or over HTTP), with the envelope's status and message. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "SandboxError";
  }
}

/** A control call's data, or its refusal as a SandboxError: the envelope's message (in process), or the line naming the mock (`line`, over HTTP). */
export type Answered = <T>(call: Promise<{ data?: { data?: unknown }; error?: unknown; response: Response }>) => Promise<T>;

export function answeredBy(baseUrl: string | URL, text: "message" | "line"): Answered {
  return async (call) => {
    const answer = await controlAnswer(call, baseUrl);
    if (!answer.ok) throw new SandboxError(answer.status, answer[text]);
    return answer.data as never;
  };
}

/** The sandbox `view` names, with `journal` and its reset and delete made through `admin`. */
export function sandboxHandle(view: SandboxView, admin: ControlClient, answered: Answered, journal: JournalAccess): MockSandbox {
  const path = { params: { path: { id: view.id } } };
  return {
    ...view,
    key: sandboxKeyNames(view),
    ...journal,
    reset: async () => void (await answered(admin.POST("/_mock/sandboxes/{id}/reset", path))),
    delete: async () => void (await answered(admin.DELETE("/_mock/sandboxes/{id}", path))),
  };
}
