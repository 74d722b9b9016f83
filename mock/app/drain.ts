// How a running mock stops without losing a request, as a rolling restart needs: from the first
// moment it is "stopping" (GET /_mock/ready answers 503, so a balancer that checks it, or a
// Kubernetes Service, stops sending), and it keeps serving for the drain period while they notice,
// every answer carrying Connection: close so that clients open their next connection elsewhere.
// Then it stops accepting connections, finishes the requests in flight, closes the kept-alive
// connections, and closes the rest of the mock (deliveries in flight finish; what it holds for the
// store is handed back: journal entries written, deliveries it is not sending released).

/** A step of the drain, as the command line says it. */
export type DrainStep = { step: "draining"; periodMs: number } | { step: "closing"; inFlight: number } | { step: "stopped" };

export interface DrainOptions {
  /** How long the mock keeps serving once it says it is stopping, in milliseconds (default 0). */
  periodMs?: number;
  /** How long requests in flight get once it stops accepting, before their connections are cut (default: the HTTP edge's request timeout, the longest a request may take). */
  patienceMs?: number;
  /** Waits `ms` milliseconds (a test passes its own clock). */
  sleep?: (ms: number) => Promise<void>;
  /** Told of each step as it begins. */
  onStep?: (step: DrainStep) => void;
}

/** What the drain needs of the HTTP edge (edges/node/http.ts). */
export interface DrainableServer {
  lingerClose(): void;
  inFlight(): number;
  /** `patienceMs` undefined: the edge's own request timeout. */
  drain(patienceMs?: number): Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The stopping state of one running mock: `stopping` (what readiness reads), and `drain`, which
 * runs once (a second call answers the first's promise) and ends with `close`.
 */
export function createStopper(server: DrainableServer, close: () => Promise<void>) {
  let stopping = false;
  let draining: Promise<void> | undefined;
  return {
    get stopping() {
      return stopping;
    },
    /** Marks the mock as stopping (readiness 503) without draining: close() does it. */
    markStopping() {
      stopping = true;
    },
    drain(options: DrainOptions = {}): Promise<void> {
      stopping = true;
      draining ??= (async () => {
        const { periodMs = 0, patienceMs, sleep = sleepFor, onStep } = options;
        server.lingerClose();
        onStep?.({ step: "draining", periodMs });
        if (periodMs > 0) await sleep(periodMs);
        onStep?.({ step: "closing", inFlight: server.inFlight() });
        await server.drain(patienceMs);
        await close();
        onStep?.({ step: "stopped" });
      })();
      return draining;
    },
  };
}
