// Calls sent together: one script call (one round trip) for many requests. A batch goes as soon as
// none is on its way; calls made meanwhile go together next, so the busier the replica, the larger
// its batches. Each caller gets its own answer once Redis has done what its batch asked.

/** The most calls one batch takes (a script runs alone in Redis: batches stay short). */
const MOST = 100;

export class Batcher<I, O> {
  private pending: { input: I; resolve: (output: O) => void; reject: (error: unknown) => void }[] = [];
  private sending = false;

  /** `send` answers one output per input, in order. */
  constructor(private readonly send: (inputs: I[]) => Promise<O[]>) {}

  add(input: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      // After this turn's I/O callbacks, so that requests arriving together start together.
      if (!this.sending && this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    if (this.sending || this.pending.length === 0) return;
    this.sending = true;
    const batch = this.pending.splice(0, MOST);
    this.send(batch.map((call) => call.input))
      .then(
        (outputs) => batch.forEach((call, i) => call.resolve(outputs[i])),
        (error: unknown) => batch.forEach((call) => call.reject(error)),
      )
      .finally(() => {
        this.sending = false;
        this.flush();
      });
  }
}
