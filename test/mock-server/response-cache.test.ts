// The response cache: bounded in bytes, oldest entries evicted first, a key set again counted once,
// and a world's entries dropped when its dataset's version moves or it is dropped, no other world's.
import { describe, expect, test } from "vitest";
import { ResponseCache, type CachedReply } from "../../mock/server/response-cache.js";

const reply = (bytes: number): CachedReply => ({ operationId: "op", permission: "p", status: 200, body: Buffer.alloc(bytes) });

describe("ResponseCache", () => {
  // [name, { given: sets in order (key, body bytes), want: keys kept }] with a bound of 100 bytes
  const cases: Array<[string, { given: Array<[string, number]>; want: string[] }]> = [
    ["under the bound, all kept", { given: [["a", 20], ["b", 20]], want: ["a", "b"] }],
    ["over it, the oldest go first", { given: [["a", 40], ["b", 40], ["c", 40]], want: ["b", "c"] }],
    ["a key set again is counted once, and its new age counts", { given: [["a", 40], ["b", 40], ["a", 40], ["c", 40]], want: ["a", "c"] }],
    ["one body over the bound is not kept", { given: [["a", 20], ["big", 200]], want: ["a"] }],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    const cache = new ResponseCache(100);
    for (const [key, bytes] of given) cache.set("w", key, 1, reply(bytes));
    expect(["a", "b", "c", "big"].filter((key) => cache.get("w", key, 1) !== undefined)).toEqual(want);
  });

  test("a new dataset version of a world empties that world's space, no other", () => {
    const cache = new ResponseCache(100);
    cache.set("w", "a", 1, reply(10));
    cache.set("other", "a", 1, reply(10));
    expect(cache.get("w", "a", 2)).toBeUndefined();
    expect(cache.size, "the other world's entry stays").toBe(1);
    expect(cache.get("other", "a", 1), "the other world's entry is still served").toBeDefined();
  });

  test("dropping a world forgets its entries and their bytes", () => {
    const cache = new ResponseCache(100);
    cache.set("w", "a", 1, reply(60));
    cache.drop("w");
    cache.set("other", "b", 1, reply(60));
    expect(cache.get("w", "a", 1), "the dropped world's entry is gone").toBeUndefined();
    expect(cache.get("other", "b", 1), "its bytes no longer count against the bound").toBeDefined();
  });

  test("a world whose data keeps changing leaves no dead answers queued", () => {
    const cache = new ResponseCache(1_000_000);
    for (let version = 1; version <= 10_000; version++) cache.set("w", "a", version, reply(10));
    expect(cache.size).toBe(1);
    expect((cache as unknown as { order: { length: number } }).order.length, "the queue of insertions is rebuilt when mostly stale").toBeLessThan(200);
  });

  test("a full cache of many small entries stays at its bound while it turns over", () => {
    const cache = new ResponseCache(10_000);
    for (let i = 0; i < 50_000; i++) cache.set("w", `/v1/x?i=${i}`, 1, reply(10));
    expect(cache.size, "entries kept within the bound").toBeLessThanOrEqual(10_000 / 10);
    expect(cache.get("w", "/v1/x?i=49999", 1), "the newest kept").toBeDefined();
    expect(cache.get("w", "/v1/x?i=0", 1), "the oldest gone").toBeUndefined();
  });
});
