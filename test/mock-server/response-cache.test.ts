// The response cache: an answer kept from its key's second miss on, bounded in bytes, oldest entries
// evicted first, a key set again counted once, and a world's entries dropped when its dataset's
// version moves or it is dropped, no other world's.
import { describe, expect, test } from "vitest";
import { ResponseCache, type CachedReply } from "../../mock/pipeline/response-cache.js";

const reply = (bytes: number): CachedReply => ({ operationId: "op", status: 200, body: Buffer.alloc(bytes) });

/** Sets a key the way a second miss does: the first set of a key only marks it seen. */
function admit(cache: ResponseCache, space: string, key: string, version: number, answer: CachedReply): void {
  cache.set(space, key, version, answer);
  cache.set(space, key, version, answer);
}

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
    for (const [key, bytes] of given) admit(cache, "w", key, 1, reply(bytes));
    expect(["a", "b", "c", "big"].filter((key) => cache.get("w", key, 1) !== undefined)).toEqual(want);
  });

  test("a new dataset version of a world empties that world's space, no other", () => {
    const cache = new ResponseCache(100);
    admit(cache, "w", "a", 1, reply(10));
    admit(cache, "other", "a", 1, reply(10));
    expect(cache.get("w", "a", 2)).toBeUndefined();
    expect(cache.size, "the other world's entry stays").toBe(1);
    expect(cache.get("other", "a", 1), "the other world's entry is still served").toBeDefined();
  });

  test("dropping a world forgets its entries and their bytes", () => {
    const cache = new ResponseCache(100);
    admit(cache, "w", "a", 1, reply(60));
    cache.drop("w");
    admit(cache, "other", "b", 1, reply(60));
    expect(cache.get("w", "a", 1), "the dropped world's entry is gone").toBeUndefined();
    expect(cache.get("other", "b", 1), "its bytes no longer count against the bound").toBeDefined();
  });

  test("a world whose data keeps changing leaves no dead answers queued", () => {
    const cache = new ResponseCache(1_000_000);
    for (let version = 1; version <= 10_000; version++) admit(cache, "w", "a", version, reply(10));
    expect(cache.size).toBe(1);
    expect((cache as unknown as { order: { length: number } }).order.length, "the queue of insertions is rebuilt when mostly stale").toBeLessThan(200);
  });

  test("a full cache of many small entries stays at its bound while it turns over", () => {
    const cache = new ResponseCache(10_000);
    for (let i = 0; i < 50_000; i++) admit(cache, "w", `/v1/x?i=${i}`, 1, reply(10));
    expect(cache.size, "entries kept within the bound").toBeLessThanOrEqual(10_000 / 10);
    expect(cache.get("w", "/v1/x?i=49999", 1), "the newest kept").toBeDefined();
    expect(cache.get("w", "/v1/x?i=0", 1), "the oldest gone").toBeUndefined();
  });

  // [name, { given: how often each of 1,000 keys misses, want: how many are kept }]
  const admission: Array<[string, { given: number; want: [number, number] }]> = [
    ["keys asked once are not kept (a crawl does not fill the cache)", { given: 1, want: [0, 125] }],
    ["keys asked twice are kept from the second miss", { given: 2, want: [1000, 1000] }],
  ];
  test.each(admission)("%s", (_name, { given, want }) => {
    const cache = new ResponseCache(1_000_000);
    for (let i = 0; i < 1000; i++) for (let n = 0; n < given; n++) cache.set("w", `/v1/x?i=${i}`, 1, reply(10));
    // A key sharing a bit of the table with one seen before is admitted early: at most one in eight.
    expect(cache.size, `kept after ${given} miss(es) each`).toBeGreaterThanOrEqual(want[0]);
    expect(cache.size, `kept after ${given} miss(es) each`).toBeLessThanOrEqual(want[1]);
  });

  test("the same URL in two worlds is seen once in each", () => {
    const cache = new ResponseCache(1_000_000);
    cache.set("w", "/v1/x", 1, reply(10));
    cache.set("other", "/v1/x", 1, reply(10));
    expect(cache.get("other", "/v1/x", 1), "another world's first miss is its own").toBeUndefined();
  });
});
