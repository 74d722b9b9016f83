// A generated dataset builds organisation 1 at once and organisation 2 when something first reads
// it (lazy-organizations.ts): ids, forks, resets and organisation 1's requests build nothing of it,
// and however it is first read it holds the bytes of a build of both in order from one seeded
// picker, as createDataset did before it waited.
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOrganization } from "../../mock/data/build-organization.js";
import { ORGANIZATION_PROFILES } from "../../mock/data/catalogue.js";
import { forkDataset, isShared, resetDataset, writableOrganization } from "../../mock/data/copy-on-write.js";
import { createDataset, sampleIds, type Dataset, type OrganizationData } from "../../mock/data/dataset.js";
import { adoptExamples } from "../../mock/data/example-ids.js";
import { englishFaker } from "../../mock/data/faker.js";
import { Picker } from "../../mock/data/picker.js";
import { builtOrganizationIds, organizationAt, organizationNameAt } from "../../mock/data/lazy-organizations.js";
import { addEmployee } from "../../mock/data/mutations.js";
import { sharedStartDataset } from "../../mock/data/start-datasets.js";
import { createHandlers, DEMO_KEY } from "../../mock/msw/index.js";
import { startMock } from "../../mock/index.js";
import { createHrClient } from "../../src/client/index.js";

const SEED = 11;
const TODAY = "2026-08-17";
const SCALE = 0.3;

/** Both organisations built at once, in order, from one seeded picker: what createDataset made before it waited. */
function eagerOrganizations(seed: number, today: string, scale: number): OrganizationData[] {
  const faker = englishFaker();
  faker.seed(seed);
  const picker = new Picker(faker);
  const [first, ...rest] = ORGANIZATION_PROFILES.map((profile) => buildOrganization(picker, profile, { scale, today }));
  return [adoptExamples(first, today), ...rest];
}

const eager = eagerOrganizations(SEED, TODAY, SCALE).map((org) => JSON.stringify(org));
const fresh = () => createDataset({ seed: SEED, today: TODAY, scale: SCALE });
const second = (ds: Dataset) => ds.organizationIds[1];

describe("what builds nothing of organisation 2", () => {
  const READS: [string, (ds: Dataset) => unknown][] = [
    ["creating the dataset", () => undefined],
    ["its ids", (ds) => ds.organizationIds.join()],
    ["has, size and keys by id", (ds) => [ds.organizationById.has(second(ds)), ds.organizationById.size, [...ds.organizationById.keys()]]],
    ["organisation 1 by id and by position", (ds) => [ds.organizationById.get(ds.organizationIds[0]), organizationAt(ds, 1)]],
    ["forking it", (ds) => forkDataset(ds)],
    ["changing organisation 1 in a fork, then resetting the fork", (ds) => {
      const fork = forkDataset(ds);
      addEmployee(fork, fork.organizationIds[0]);
      resetDataset(fork, ds);
    }],
    ["whether organisation 1 of a fork is the start's", (ds) => isShared(organizationAt(forkDataset(ds), 1)!)],
    ["the names of both (a banner's)", (ds) => [organizationNameAt(ds, 1), organizationNameAt(ds, 2)]],
  ];

  it.each(READS)("%s", (_name, read) => {
    const ds = fresh();
    read(ds);
    expect(builtOrganizationIds(ds), "only organisation 1 is built").toEqual([ds.organizationIds[0]]);
    expect(ds.organizationIds, "both ids are known").toHaveLength(2);
  });
});

describe("organisation 2, however first read, is the eager build's", () => {
  const READS: [string, (ds: Dataset) => OrganizationData | undefined][] = [
    ["by id", (ds) => ds.organizationById.get(second(ds))],
    ["by position", (ds) => organizationAt(ds, 2)],
    ["through organizations", (ds) => ds.organizations[1]],
    ["through the map's values", (ds) => [...ds.organizationById.values()][1]],
    ["through a fork", (ds) => forkDataset(ds).organizationById.get(second(ds))],
    ["through a fork's change of it (the start's stays as built)", (ds) => {
      addEmployee(forkDataset(ds), second(ds));
      return ds.organizationById.get(second(ds));
    }],
    ["through a sandbox reset", (ds) => {
      const fork = forkDataset(ds);
      writableOrganization(fork, ds.organizationIds[0]);
      resetDataset(fork, ds);
      return fork.organizationById.get(second(ds));
    }],
    ["after another dataset built its own organisation 2", (ds) => {
      createDataset({ seed: SEED + 1, today: TODAY, scale: SCALE }).organizations;
      return organizationAt(ds, 2);
    }],
  ];

  it.each(READS)("%s", (_name, read) => {
    const ds = fresh();
    const org = read(ds);
    expect(builtOrganizationIds(ds), "now both are built").toEqual(ds.organizationIds);
    expect(JSON.stringify(org) === eager[1], "organisation 2's bytes are the eager build's").toBe(true);
    expect(JSON.stringify(ds.organizations[0]) === eager[0], "organisation 1's too").toBe(true);
  });

  it("is built once, for the start and every fork", () => {
    const ds = fresh();
    const a = forkDataset(ds);
    const b = forkDataset(ds);
    const org = a.organizationById.get(second(ds));
    expect(b.organizationById.get(second(ds))).toBe(org);
    expect(ds.organizationById.get(second(ds))).toBe(org);
    expect(isShared(org!), "a fork's read of it is the start's").toBe(true);
  });

  it("has the name it was given before it was built", () => {
    const ds = fresh();
    const name = organizationNameAt(ds, 2);
    expect(organizationAt(ds, 2)!.name, "the built organisation's name").toBe(name);
  });

  it("gives the sample ids of the eager build", () => {
    const eagerIds = eagerOrganizations(SEED, TODAY, SCALE);
    expect(sampleIds(fresh())).toEqual(sampleIds({ ...fresh(), organizations: eagerIds }));
  });
});

describe("the MSW handlers' first answer, for a demo key of organisation 1", () => {
  // A seed and today of this file only: the start dataset is shared by the handlers of the process.
  const options = { seed: 4242, today: "2026-02-03" };
  const server = setupServer(...createHandlers(options));
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterAll(() => server.close());

  it("builds organisation 1 only", async () => {
    const page = await createHrClient({ baseUrl: "http://127.0.0.1:4010", apiKey: DEMO_KEY.org1Full, retry: false }).listEmployees({ PageSize: 5 });
    expect(page.data).toHaveLength(5);
    const start = sharedStartDataset(options);
    expect(builtOrganizationIds(start), "organisation 2 waits").toEqual([start.organizationIds[0]]);
    const other = await createHrClient({ baseUrl: "http://127.0.0.1:4010", apiKey: DEMO_KEY.org2Full, retry: false }).listEmployees({ PageSize: 5 });
    expect(other.data[0].id, "a key of organisation 2 reads it").not.toBe(page.data[0].id);
    expect(builtOrganizationIds(start), "built by its first request").toEqual(start.organizationIds);
  });
});

describe("startMock's first answer, for a demo key of organisation 1", () => {
  const options = { port: 0, seed: 4343, today: "2026-02-04" };

  it("builds organisation 1 only; its sample ids build organisation 2, as the eager build's", async () => {
    const mock = await startMock(options);
    try {
      const response = await fetch(`${mock.url}/v1/employee/list?PageSize=5`, { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
      expect(response.status).toBe(200);
      const start = sharedStartDataset(options);
      expect(builtOrganizationIds(start), "organisation 2 waits").toEqual([start.organizationIds[0]]);
      expect(mock.keys.find((k) => k.organisation === 2)?.organizationName, "its name, known unbuilt").toBe(ORGANIZATION_PROFILES[1].name);
      const eagerIds = eagerOrganizations(options.seed, options.today, 1);
      expect(mock.ids, "the sample ids").toEqual(sampleIds({ ...createDataset(options), organizations: eagerIds }));
      expect(builtOrganizationIds(start), "built by the sample ids").toEqual(start.organizationIds);
    } finally {
      await mock.close();
    }
  });
});
