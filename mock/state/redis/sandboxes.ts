// The sandboxes of a replicated mock, kept in Redis: each one's definition (its id, label, keys
// and data file) and its keys, in the mock's slot; each one's world in its own slot. A sandbox made,
// reset or deleted through one replica is so for every other: they learn of it when they list the
// sandboxes, are asked about it, or meet one of its keys. The Redis backend (index.ts) is this and more.
import type { SandboxDefinition, World } from "../../worlds/world.js";
import type { Registered, WorldsState } from "../../worlds/state-port.js";
import { parseDefinition } from "../snapshot.js";
import { allWorldKeys, mockKeys, worldKeys } from "./keys.js";
import type { Scripts } from "./scripts.js";

export abstract class SharedSandboxes implements Pick<WorldsState, "register" | "definitions" | "definition" | "sandboxOfKey" | "remove"> {
  constructor(
    protected readonly scripts: Scripts,
    /** Where a definition that does not read is reported (the sandbox is then left out). */
    private readonly reportBad: (line: string) => void,
  ) {}

  async register(definition: SandboxDefinition, max: number): Promise<Registered> {
    const { scripts } = this;
    // The world first: a registered sandbox always has its world.
    const keys = worldKeys(definition.id);
    await scripts.run("hrmOpenWorld", [keys.meta], []);
    const [registered, held] = (await scripts.run(
      "hrmRegisterSandbox",
      [mockKeys.sandboxes, mockKeys.sandboxKeys],
      [max, definition.id, JSON.stringify(definition), ...definition.keys.map((k) => k.key)],
    )) as number[];
    if (registered === 1) return { ok: true };
    await scripts.run("hrmDeleteWorld", allWorldKeys(keys), []);
    return { ok: false, held };
  }

  async definitions(): Promise<SandboxDefinition[]> {
    const all = await this.scripts.read((client) => client.hgetall(mockKeys.sandboxes));
    return Object.entries(all)
      .flatMap(([id, text]) => this.parse(id, text) ?? [])
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  async definition(id: string): Promise<SandboxDefinition | undefined> {
    const text = await this.scripts.read((client) => client.hget(mockKeys.sandboxes, id));
    return text === null ? undefined : this.parse(id, text);
  }

  async sandboxOfKey(key: string): Promise<string | undefined> {
    return (await this.scripts.read((client) => client.hget(mockKeys.sandboxKeys, key))) ?? undefined;
  }

  /** Its keys stop first, then its world goes. */
  async remove(world: World): Promise<void> {
    await this.scripts.run("hrmUnregisterSandbox", [mockKeys.sandboxes, mockKeys.sandboxKeys], [world.id, ...world.keys.map((k) => k.key)]);
    await this.scripts.run("hrmDeleteWorld", allWorldKeys(worldKeys(world.id)), []);
  }

  private parse(id: string, text: string): SandboxDefinition | undefined {
    const definition = parseDefinition(text, id);
    if (typeof definition !== "string") return definition;
    this.reportBad(`hr-mock: sandbox ${id} in the state store is left out: its definition ${definition}`);
    return undefined;
  }
}
