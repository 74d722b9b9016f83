// The mock's seeded dataset: organisations with their companies, departments, employees, leave
// types, leave requests, balances set up and holidays. The same (seed, scale, today) gives the same
// bytes on every run and machine: a new Faker per dataset, seeded, and no clock reading inside.
import { englishFaker } from "./faker.js";
import { ORGANIZATION_PROFILES } from "./catalogue.js";
import { dayOf, normalizeToday, yearOf } from "./dates.js";
import { Picker } from "./picker.js";
import { buildOrganization } from "./build-organization.js";
import { LazyOrganization, OrganizationTable } from "./lazy-organizations.js";
import { adoptExamples } from "./example-ids.js";
import { fileError, givenOrganizations, type DataFileProblem, type LoadedDataFile } from "./data-file.js";
import { isQuiet } from "./data-file-repair.js";
import { isEligible } from "./eligibility.js";
import { balanceKey, type OrganizationData } from "./organization.js";
import { APPROVED, SUBMITTED, isBudgeted } from "./statuses.js";

export type { OrganizationData } from "./organization.js";
export { organizationAt } from "./lazy-organizations.js";
export type * from "./records.js";

export interface Dataset {
  readonly seed: number;
  readonly scale: number;
  /** ISO date `YYYY-MM-DD`; "this year" of the balances is its calendar year. */
  readonly today: string;
  /** Incremented by every mutation, so answers can be cached per version. */
  version: number;
  /** At least two, in a fixed order: the first is the demo keys' main organisation. Builds none. */
  readonly organizationIds: readonly string[];
  /** Every organisation in organizationIds' order: reading it builds those not built yet (export, samples). */
  readonly organizations: readonly OrganizationData[];
  /** get builds the organisation asked for if it was not yet (lazy-organizations.ts); has and keys build none. */
  readonly organizationById: ReadonlyMap<string, OrganizationData>;
}

export interface CreateDatasetOptions {
  /** Any integer; default 1. */
  seed?: number;
  /** Multiplies employees and leave requests (load tests); default 1. */
  scale?: number;
  /** ISO date `YYYY-MM-DD` or a Date (its UTC date); default the real current UTC date. */
  today?: string | Date;
  /** A data file already read and checked (readDataFile): its records, the rest generated around them. */
  data?: LoadedDataFile;
}

/** The dataset; a DataFileError lists every rule the data file breaks (nothing is built then). */
export function createDataset({ seed = 1, scale = 1, today, data }: CreateDatasetOptions = {}): Dataset {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  if (!(Number.isFinite(scale) && scale > 0 && scale <= 1000)) throw new RangeError(`scale must be a number above 0 and at most 1000, got ${scale}`);
  const day = normalizeToday(today ?? data?.content.today);
  const faker = englishFaker();
  faker.seed(seed);
  const picker = new Picker(faker);
  const problems: DataFileProblem[] = [];
  const given = data ? givenOrganizations(data, problems) : [];
  const found = data?.problems ?? [];
  let slots: LazyOrganization[];
  try {
    slots = data
      ? ORGANIZATION_PROFILES.map((profile, i) => {
          const org = buildOrganization(picker, profile, { scale, today: day, given: given[i] });
          return new LazyOrganization(org.id, org);
        })
      : generatedOrganizations(picker, { scale, today: day });
  } catch (error) {
    // What the schema refused can leave an entry the builder cannot read: those problems say why.
    if (data && found.length > 0) throw fileError(data, found);
    throw error;
  }
  // Reading's problems and the builder's together, one run for all of them.
  const all = [...found, ...problems.filter((p) => !isQuiet(p.pointer, data?.quiet ?? []))];
  if (data && all.length > 0) throw fileError(data, all);
  return datasetOf({ seed, scale, today: day }, new OrganizationTable(slots));
}

/**
 * The generated organisations, the last one built when first read. Every pick comes from the one
 * seeded picker, in order, and nothing else draws from it after createDataset: so the last one's id
 * (its build's first pick) is drawn now and the rest of its build continues the stream later, the
 * same bytes as building it now. Only the last can wait: each id is drawn where the one before ends.
 */
function generatedOrganizations(picker: Picker, { scale, today }: { scale: number; today: string }): LazyOrganization[] {
  // Organisation 1 answers the API reference's examples (a data file's keeps its own ids).
  const first = adoptExamples(buildOrganization(picker, ORGANIZATION_PROFILES[0], { scale, today }), today);
  const slots = [new LazyOrganization(first.id, first)];
  for (const profile of ORGANIZATION_PROFILES.slice(1)) {
    slots[slots.length - 1].get();
    const id = picker.uuid();
    slots.push(new LazyOrganization(id, { name: profile.name, build: () => buildOrganization(picker, profile, { scale, today, id }) }));
  }
  return slots;
}

/** A dataset at version 0 reading `table`'s organisations. */
export function datasetOf({ seed, scale, today }: Pick<Dataset, "seed" | "scale" | "today">, table: OrganizationTable): Dataset {
  return {
    seed,
    scale,
    today,
    version: 0,
    organizationIds: table.ids,
    get organizations() {
      return table.all();
    },
    organizationById: table,
  };
}

/** Ids a test needs, for one organisation. */
export type OrganizationSampleIds = ReturnType<typeof sampleIds>[number];

function first<T>(items: readonly T[], test: (item: T) => boolean, what: string): T {
  const found = items.find(test);
  if (found === undefined) throw new Error(`the dataset has no ${what}`);
  return found;
}

/** Ids a test needs, one entry per organisation, in the dataset's order; deterministic picks. */
export function sampleIds(dataset: Dataset) {
  const thisYear = yearOf(dataset.today);
  const todayDay = dayOf(dataset.today);
  return dataset.organizations.map((org) => {
    const thisYears = first(
      org.leaveRequests,
      (r) => yearOf(r.startDate) === thisYear && isBudgeted(r.statusId),
      "leave request this year",
    );
    const pairs = org.employees.filter((e) => e.status === "Active").flatMap((e) => org.leaveTypes.map((t) => ({ e, t })));
    const { e, t } = first(pairs, ({ e, t }) => t.isActive && isEligible(t, e) && !org.index.balanceSetUpByKey.has(balanceKey(e.id, t.id)), "balance that was never set up");
    const byKind = [0, 1, 2, 3, 4].map((k) => first(org.leaveTypes, (t) => t.eligibilityCriteria === k && t.isActive, `active leave type of eligibility ${k}`).id);
    return {
      organizationId: org.id,
      organizationName: org.name,
      companyId: org.companies[0].id,
      departmentId: first(org.departments, (d) => d.status === "Active", "Active department").id,
      inactiveDepartmentId: first(org.departments, (d) => d.status === "InActive", "InActive department").id,
      employeeId: first(org.employees, (e) => e.status === "Active", "Active employee").id,
      /** Any leave request. */
      leaveRequestId: org.leaveRequests[org.leaveRequests.length - 1].id,
      /** A Submitted request (waiting), starting in the future. */
      waitingLeaveRequestId: first(org.leaveRequests, (r) => r.statusId === SUBMITTED && dayOf(r.startDate) > todayDay, "Submitted future leave request").id,
      approvedLeaveRequestId: first(org.leaveRequests, (r) => r.statusId === APPROVED, "Approved leave request").id,
      /** A pair whose balance was set up and that has requests this year. */
      balance: { employeeId: thisYears.employeeId, leaveTypeId: thisYears.leaveTypeId },
      /** An Active employee and an active leave type they are eligible for, whose balance was never set up (rule 1 of section 4.3). */
      balanceNeverSetUp: { employeeId: e.id, leaveTypeId: t.id },
      /** One active leave type id per eligibility criteria, index 0 to 4. */
      leaveTypeIdByEligibility: byKind as [string, string, string, string, string],
      inactiveLeaveTypeId: first(org.leaveTypes, (t) => !t.isActive, "inactive leave type").id,
    };
  });
}
