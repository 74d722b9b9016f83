// A world's store in Redis, as one replica holds it: the generation and the number of data changes
// its copy of the world's dataset reflects. Every request's admission script checks both; when
// another replica changed the world, this one catches up (the changes replayed in order, or the world
// restarted first) and asks again: a change made anywhere is seen on the next request everywhere.
// Local changes of the dataset run one at a time per world. Every request asks Redis (batched per
// turn of the event loop) with its record: a Cluster has no tracking of keys across nodes, and on one
// server this held 61-85 % of memory state's throughput (npm run bench -- --only shared-state).
import { randomUUID } from "node:crypto";
import type { DataChange } from "../../webhooks/core.js";
import { DEFAULT_WORLD, type World } from "../../worlds/world.js";
import type { AdmitRequest, FaultsPort, WorldAdmission, WorldStore } from "../../worlds/world-store.js";
import type { Fault } from "../../worlds/faults.js";
import { RATE_LIMIT_WINDOW_MS } from "../../kernel/limits.js";
import { replayChanges } from "../replay.js";
import { parseChange } from "../snapshot.js";
import { recordArgs } from "./record-args.js";
import { worldKeys, type WorldKeys } from "./keys.js";
import { ADMITTED } from "./formats.js";
import type { Scripts } from "./scripts.js";
import type { BackendOptions } from "../backend.js";
import type { WorldsHere } from "../../worlds/state-port.js";
import { Batcher } from "./batch.js";

/** What every world's store of one replica shares. */
export interface RedisWorldContext extends Pick<BackendOptions, "rateLimit" | "onError"> {
  scripts: Scripts;
  /** The store's address as lines show it. */
  store: string;
  journalCapacity: number;
  maxFaults: number;
  /** Where a world restarts (a reset, here or through another replica) or is forgotten (deleted through another replica) here. */
  here: WorldsHere;
}

export class RedisWorldState implements WorldStore {
  readonly keys: WorldKeys;
  /** The generation (resets so far) and data changes this replica's copy of the dataset reflects. */
  gen = 0;
  n = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly admissions = new Batcher<AdmitRequest, WorldAdmission>((requests) => this.admitBatch(requests));
  /** The changes this replica's copy reflects, in order: what a change that could not be kept is undone by. */
  private applied: DataChange[] = [];
  readonly faults: FaultsPort;

  constructor(
    private readonly context: RedisWorldContext,
    readonly world: World,
  ) {
    this.keys = worldKeys(world.id);
    const { scripts } = context;
    this.faults = {
      add: async (input) => {
        const fault: Fault = { id: randomUUID(), operation: input.operation, status: input.status ?? null, delayMs: input.delayMs ?? null, remaining: input.times ?? null };
        const [added, held] = (await scripts.run("hrmAddFault", [this.keys.faults], [context.maxFaults, JSON.stringify(fault)])) as number[];
        return added === 1 ? { ok: true, fault } : { ok: false, held };
      },
      list: async () => (await scripts.read((client) => client.lrange(this.keys.faults, 0, -1))).map((text) => JSON.parse(text) as Fault),
      clear: async () => ((await scripts.run("hrmClearFaults", [this.keys.faults], [])) as string[]).map((text) => JSON.parse(text) as Fault),
    };
  }

  get rateLimit(): { limit: number; windowMs: number } | undefined {
    const { rateLimit } = this.context;
    return rateLimit === "off" ? undefined : { limit: rateLimit, windowMs: RATE_LIMIT_WINDOW_MS };
  }

  /** Joins the requests admitted in this turn of the event loop: one script call for them all. */
  admit(request: AdmitRequest): Promise<WorldAdmission> {
    return this.admissions.add(request);
  }

  private async admitBatch(requests: AdmitRequest[]): Promise<WorldAdmission[]> {
    const { scripts, journalCapacity } = this.context;
    const limit = this.rateLimit;
    // The callers' kept answers, recorded with their admission.
    let records = requests.map((request) => request.entryIfAdmitted);
    for (let round = 0; ; round++) {
      const keys = [this.keys.meta, this.keys.faults, this.keys.journal, this.keys.tally];
      const args: (string | number)[] = [this.gen, this.n, limit?.limit ?? 0, limit?.windowMs ?? 0, journalCapacity];
      requests.forEach((request, i) => {
        const counted = limit !== undefined && request.read;
        if (counted) keys.push(this.keys.rate(this.gen, request.key));
        const record = records[i];
        args.push(counted ? keys.length : 0, counted ? randomUUID() : "", request.read ? 1 : 0, request.permitted ? 1 : 0, request.operationId, record ? 1 : 0);
        if (record) args.push(...recordArgs(record()));
      });
      // A store out of reach rejects with StoreUnavailableError: admission (pipeline/admission.ts) answers it.
      const answer = (await scripts.run("hrmAdmit", keys, args)) as (number | string)[];
      if (answer[0] === ADMITTED.stale && answer.length === 3) {
        // Reset through another replica (a new generation): its rate-limit keys are others; ask again.
        if (round >= 5) throw new Error(`hr-mock: world ${this.world.id} keeps changing under its requests (generation ${answer[1]}, ${answer[2]} changes)`);
        await this.catchUp(Number(answer[1]), Number(answer[2]));
        // Each caller's kept answer may be stale now: it answers again after admission.
        records = requests.map(() => undefined);
        continue;
      }
      if (answer[0] === ADMITTED.gone && answer.length === 1) {
        if (this.world.id === DEFAULT_WORLD) {
          // The default world is never deleted: its state was wiped (FLUSHALL): it starts again.
          await this.open();
          continue;
        }
        this.context.here.forget(this.world);
        return requests.map(() => ({ kind: "gone" }));
      }
      // Data changed through another replica meanwhile: admitted all the same (nothing kept was
      // recorded), and each answers from this copy once it reflects those changes.
      const held = Number(answer[0]);
      if (held !== this.n) await this.catchUp(this.gen, held);
      return requests.map((_, i) => this.outcome(answer.slice(1 + i * 4, 5 + i * 4)));
    }
  }

  /** One request's four values of the admission script's answer. */
  private outcome([code, a, b, c]: (number | string)[]): WorldAdmission {
    switch (code) {
      case ADMITTED.rateLimited:
        return { kind: "rate-limited", rate: { allowed: false, limit: Number(a), remaining: 0, retryAfterSeconds: Number(b) } };
      case ADMITTED.forbidden:
        return { kind: "forbidden", rate: this.decision(Number(a)) };
      case ADMITTED.fault: {
        const fault = JSON.parse(String(b)) as Fault;
        return { kind: "fault", rate: this.decision(Number(a)), answer: { fault, status: fault.status!, delayMs: fault.delayMs ?? undefined } };
      }
      default:
        return { kind: "admitted", rate: this.decision(Number(a)), delayMs: Number(b) || undefined, recorded: Number(c) === 1 };
    }
  }

  /** The world's metadata made (generation 1) when it has none, and this replica brought in line with it. */
  async open(): Promise<void> {
    const [gen, n] = (await this.context.scripts.run("hrmOpenWorld", [this.keys.meta], [])) as number[];
    if (gen < 0) return;
    await this.catchUp(gen, n);
  }

  /** This replica's copy brought to `gen` with `n` changes: restarted first when the generation moved. */
  catchUp(gen: number, n: number): Promise<void> {
    return this.exclusive(() => this.catchUpNow(gen, n));
  }

  /** The world's dataset at its start here, in generation `gen`, with no changes. */
  startAgain(gen: number): void {
    this.context.here.restart(this.world);
    this.gen = gen;
    this.n = 0;
    this.applied = [];
  }

  /** A change made here and kept in Redis: this copy reflects one more. */
  committed(change: DataChange): void {
    this.n++;
    this.applied.push(change);
  }

  /** A change made here that Redis did not keep: the copy goes back to its start and replays what it reflected, without asking Redis. */
  undo(): void {
    this.context.here.restart(this.world);
    replayChanges(this.world.dataset, this.applied);
  }

  /** catchUp, by a caller already alone with the dataset (exclusive). */
  async catchUpNow(gen: number, n: number): Promise<void> {
    if (gen === this.gen && n === this.n) return;
    if (gen !== this.gen || n < this.n) this.startAgain(gen);
    if (n === this.n) return;
    const lines = await this.context.scripts.read((client) => client.lrange(this.keys.changes, this.n, n - 1));
    const changes: DataChange[] = [];
    for (const line of lines) {
      const change = parseChange(line);
      if (typeof change === "string") throw new Error(`hr-mock: a data change of world ${this.world.id} in ${this.context.store} is not one (${change})`);
      changes.push(change);
    }
    const problem = replayChanges(this.world.dataset, changes);
    if (problem) this.context.onError(`hr-mock: world ${this.world.id}: a data change made through another replica does not apply here (${problem}); is every replica the same version, with the same --seed, --scale, --today and --data?`);
    this.n += lines.length;
    this.applied.push(...changes);
  }

  /** Runs `work` after every earlier local change of this world's dataset, alone. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private decision(remaining: number) {
    const limit = this.rateLimit;
    return limit && remaining >= 0 ? { allowed: true, limit: limit.limit, remaining } : undefined;
  }
}
