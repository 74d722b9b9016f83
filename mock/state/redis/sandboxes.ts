// The sandboxes of a replicated mock, kept in Redis: each one's definition (its id, label, keys
// and data file) and its keys, in the mock's slot; each one's world in its own slot. A sandbox made,
// reset or deleted through one replica is so for every other: they learn of it when they list the
// sandboxes, are asked about it, or meet one of its keys.
import type { SandboxDefinition, World } from "../../worlds/world.js";
import { jsonOrUndefined } from "../../kernel/json-text.js";
import type { Registered } from "../../worlds/state-port.js";
import { allWorldKeys, mockKeys, worldKeys } from "./keys.js";
import type { Scripts } from "./scripts.js";
import type { RedisWorldState } from "./world-state.js";

export interface SandboxParts {
  scripts: Scripts;
  /** Where a definition that does not read is reported (the sandbox is then left out). */
  onError(line: string): void;
}

export interface SharedSandboxes {
  register(definition: SandboxDefinition, max: number): Promise<Registered>;
  definitions(): Promise<SandboxDefinition[]>;
  definition(id: string): Promise<SandboxDefinition | undefined>;
  sandboxOfKey(key: string): Promise<string | undefined>;
  /** The world's keys wiped for every replica, and its dataset restarted here. */
  reset(state: RedisWorldState): Promise<void>;
  /** Its keys stop first, then its world goes. */
  remove(world: World): Promise<void>;
}

export function sharedSandboxes(parts: SandboxParts): SharedSandboxes {
  const { scripts } = parts;
  const parse = (id: string, text: string): SandboxDefinition | undefined => {
    const definition = readDefinition(text, id);
    if (typeof definition === "string") parts.onError(`hr-mock: sandbox ${id} in the state store is left out: its definition ${definition}`);
    return typeof definition === "string" ? undefined : definition;
  };
  return {
    async register(definition, max) {
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
    },
    async definitions() {
      const all = await scripts.read((client) => client.hgetall(mockKeys.sandboxes));
      return Object.entries(all)
        .flatMap(([id, text]) => parse(id, text) ?? [])
        .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    },
    async definition(id) {
      const text = await scripts.read((client) => client.hget(mockKeys.sandboxes, id));
      return text === null ? undefined : parse(id, text);
    },
    async sandboxOfKey(key) {
      return (await scripts.read((client) => client.hget(mockKeys.sandboxKeys, key))) ?? undefined;
    },
    async reset(state) {
      // Restarted here as the script did in Redis (other replicas do so at their next request).
      await state.exclusive(async () => state.startAgain(Number(await scripts.run("hrmResetWorld", allWorldKeys(state.keys), []))));
    },
    async remove(world) {
      await scripts.run("hrmUnregisterSandbox", [mockKeys.sandboxes, mockKeys.sandboxKeys], [world.id, ...world.keys.map((k) => k.key)]);
      await scripts.run("hrmDeleteWorld", allWorldKeys(worldKeys(world.id)), []);
    },
  };
}

/** A definition as it was written, or why it is not one. */
function readDefinition(text: string, id: string): SandboxDefinition | string {
  const value = jsonOrUndefined(text);
  if (value === undefined) return "is not JSON";
  const d = value as Partial<SandboxDefinition>;
  if (d?.id !== id) return `names another id (${String(d?.id).slice(0, 40)})`;
  if (typeof d.createdAt !== "string" || !(d.label === null || typeof d.label === "string")) return "has no createdAt or label";
  if (!Array.isArray(d.keys) || !d.keys.every((k) => typeof k?.key === "string" && typeof k?.demoKey === "string")) return "has no keys";
  return d as SandboxDefinition;
}
