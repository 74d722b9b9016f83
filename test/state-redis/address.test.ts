// --state redis://…: the address is read once, where it enters, and every mistake is one line
// naming it with its password masked; nothing listening is said as such, fast. The banner's line.
import { describe, expect, test } from "vitest";
import { startMock } from "../../mock/index.js";
import { sharedLine as formatSharedLine } from "../../mock/state/report.js";
import { isRedisUrl, parseRedisUrl } from "../../mock/state/redis/address.js";
import { freePort } from "../support/redis-server.js";

describe("the address", () => {
  const read: Array<[string, { given: string; want: ReturnType<typeof parseRedisUrl> | RegExp }]> = [
    ["host and port", { given: "redis://127.0.0.1:6390", want: { shown: "redis://127.0.0.1:6390", host: "127.0.0.1", port: 6390, db: 0, tls: false } }],
    ["the default port", { given: "redis://cache.internal", want: { shown: "redis://cache.internal", host: "cache.internal", port: 6379, db: 0, tls: false } }],
    ["a password and a database, the password masked", { given: "redis://:s3cr%40t@10.1.2.3:7000/4", want: { shown: "redis://:***@10.1.2.3:7000/4", host: "10.1.2.3", port: 7000, db: 4, tls: false, password: "s3cr@t" } }],
    ["a user (ACL) and TLS", { given: "rediss://mock:pw@redis.example:6380", want: { shown: "rediss://mock:***@redis.example:6380", host: "redis.example", port: 6380, db: 0, tls: true, username: "mock", password: "pw" } }],
    ["an IPv6 literal", { given: "redis://[::1]:6390", want: { shown: "redis://[::1]:6390", host: "::1", port: 6390, db: 0, tls: false } }],
    ["no host", { given: "redis://:pw@:6390", want: /^--state redis:\/\/:\*\*\*@:6390 is not a Redis address|names no host/ }],
    ["a database that is not a number", { given: "redis://127.0.0.1:6390/zero", want: /^--state redis:\/\/127\.0\.0\.1:6390\/zero: the database after the port must be a number \(redis:\/\/host:port\/0\)$/ }],
    ["a query", { given: "redis://127.0.0.1:6390?tls=1", want: /takes no query or fragment$/ }],
  ];
  test.each(read)("%s", (_name, { given, want }) => {
    if (want instanceof RegExp) {
      expect(() => parseRedisUrl(given)).toThrow(want);
      try {
        parseRedisUrl(given);
      } catch (error) {
        expect((error as Error).message, "no password in the line").not.toMatch(/pw|s3cr/);
      }
    } else expect(parseRedisUrl(given)).toEqual(want);
  });

  test("only redis:// and rediss:// are Redis; anything else is a directory", () => {
    expect(["redis://h", "REDIS://h", "rediss://h", "./redis", "/tmp/state", "redis-state"].map(isRedisUrl)).toEqual([true, true, true, false, false, false]);
  });
});

test("nothing listening at the address: one line, at once, naming it", async () => {
  const port = await freePort();
  const error = await startMock({ port: 0, state: `redis://:pw@127.0.0.1:${port}` }).then(
    (mock) => (void mock.close(), undefined),
    (e: Error) => e,
  );
  expect(error?.message).toBe(`--state redis://:***@127.0.0.1:${port}: nothing answers at 127.0.0.1:${port} (connection refused); is redis-server running there?`);
});

test("the banner's line names the store, its password masked, and a cluster as such", () => {
  expect(formatSharedLine({ store: "redis://:***@127.0.0.1:6390", cluster: false })).toBe(
    "State shared through redis://:***@127.0.0.1:6390: every replica started with this URL and the same flags serves one mock.\n",
  );
  expect(formatSharedLine({ store: "redis://127.0.0.1:7000", cluster: true })).toMatch(/^State shared through redis:\/\/127\.0\.0\.1:7000 \(a Redis Cluster\): /);
});
