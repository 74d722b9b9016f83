// One of three files run in parallel against the shared mock (test/global-setup.ts): each creates
// sandboxes, changes some of them (a trigger, an endpoint, a fault) and checks that only those see
// the change, while the other files do the same at the same time.
import { expect, inject, test } from "vitest";
import { parallelScenario } from "./support.js";

const mock = inject("mock");

test("sandboxes used at once from parallel test files see only their own changes (file 3)", async () => {
  const rounds = await Promise.all([0, 1, 2].map((round) => parallelScenario(mock.url, `parallel-3 round ${round}`, mock.ids[0])));
  expect(rounds.flat()).toEqual([]);
});
