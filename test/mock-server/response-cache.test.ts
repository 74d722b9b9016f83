// The response cache: bounded in bytes, oldest entries evicted first, a key set again counted once,
// and everything dropped when the dataset's version moves.
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
    for (const [key, bytes] of given) cache.set(key, 1, reply(bytes));
    expect(["a", "b", "c", "big"].filter((key) => cache.get(key, 1) !== undefined)).toEqual(want);
  });

  test("a new dataset version empties it", () => {
    const cache = new ResponseCache(100);
    cache.set("a", 1, reply(10));
    expect(cache.get("a", 2)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test("a full cache of many small entries stays at its bound while it turns over", () => {
    const cache = new ResponseCache(10_000);
    for (let i = 0; i < 50_000; i++) cache.set(`/v1/x?i=${i}`, 1, reply(10));
    expect(cache.size, "entries kept within the bound").toBeLessThanOrEqual(10_000 / 10);
    expect(cache.get("/v1/x?i=49999", 1), "the newest kept").toBeDefined();
    expect(cache.get("/v1/x?i=0", 1), "the oldest gone").toBeUndefined();
  });
});
