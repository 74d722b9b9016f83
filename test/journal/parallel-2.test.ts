// One of two files run in parallel against the shared mock (test/global-setup.ts): each sends
// requests through sandboxes of its own, all at once, and checks that every sandbox's journal holds
// exactly its own requests, while the other file does the same at the same time.
import { expect, inject, test } from "vitest";
import { journalIsolation } from "./support.js";

const mock = inject("mock");

test("each sandbox's journal holds its own requests and no other world's, under parallel test files (file 2)", async () => {
  const rounds = await Promise.all([0, 1].map((round) => journalIsolation(mock.url, `journal-parallel-2-${round}`)));
  expect(rounds.flat()).toEqual([]);
});
