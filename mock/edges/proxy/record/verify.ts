// A recording made into a data file the mock loads, and held to what was recorded: the file is built
// by the data file's own rules (createDataset, as `hr-mock serve --data` does), an entry those rules
// refuse (a request holding no working day by them) is left out and named, and every record seen is
// then answered by the mock's own operations and compared, field by field, with what the upstream
// answered. A derived value the rules compute differently (working days, counts, balances) is a
// disagreement, reported, never written over.
import { createDataset, type Dataset } from "../../../data/dataset.js";
import { DataFileError, type DataFile, type DataFileProblem } from "../../../data/data-file.js";
import { dataFileFromObject } from "../../../data/check-data-file.js";
import { departmentBase, departmentDetails, departmentSummary } from "../../../operations/read/departments.js";
import { employeeSummary } from "../../../operations/read/employees.js";
import { getLeaveBalance } from "../../../operations/read/leave-balance.js";
import { leaveRequestDetails, leaveRequestSummary } from "../../../operations/read/leave-requests.js";
import { leaveTypeItem } from "../../../operations/read/leave-types.js";
import type { OrganizationData } from "../../../data/organization.js";
import type { Recorded } from "./recorder.js";
import { recordedDataFile } from "./to-data-file.js";

export interface Recording {
  file: DataFile;
  /** Records kept per kind. */
  records: Record<"leaveRequests" | "leaveTypes" | "departments" | "employees" | "balances", number>;
  /** What the file could not take as seen (left out, made up to satisfy the format), one line each. */
  notes: string[];
  /** Where the data file's rules answer otherwise than the upstream did, one line each. */
  disagreements: string[];
}

const ROUNDS = 5;
/** Disagreements listed at most (the rest counted in one more line). */
const MAX_DISAGREEMENTS = 200;

/** The recording as a data file dated `today` (the day of the recording), built as `hr-mock serve --data` builds it (its default seed, 1). */
export function finishRecording(recorded: Recorded, today: string): Recording {
  const { file, notes } = recordedDataFile(recorded, today);
  let dataset: Dataset | undefined;
  for (let round = 0; !dataset; round++) {
    try {
      dataset = createDataset({ seed: 1, today, data: dataFileFromObject(file, "recording") });
    } catch (error) {
      if (!(error instanceof DataFileError) || round >= ROUNDS) throw error;
      const left = error.problems.filter((p) => leaveOut(file, p, notes));
      if (left.length === 0) throw new Error(`the recording does not make a data file the mock loads: ${error.lines.slice(0, 3).join("; ")}`);
      removeMarked(file);
    }
  }
  const records = { leaveRequests: recorded.leaveRequests.size, leaveTypes: recorded.leaveTypes.size, departments: recorded.departments.size, employees: recorded.employees.size, balances: recorded.balances.size };
  return { file, records, notes, disagreements: capped(disagreementsOf(recorded, dataset), MAX_DISAGREEMENTS) };
}

const MARK = Symbol("left out");

/** Leaves out what a problem of the rules names: a request or balance entry, else the field at fault. */
function leaveOut(file: DataFile, problem: DataFileProblem, notes: string[]): boolean {
  const [, , o, collection, i, field, k] = problem.pointer.split("/");
  const entries = (file.organisations?.[Number(o)] as Record<string, unknown[]> | undefined)?.[collection];
  const entry = entries?.[Number(i)] as Record<string | symbol, any> | undefined;
  if (!entry) return false;
  const what = problem.message.replace(/^\S+: /, "");
  if (collection === "leaveRequests" || collection === "balancesSetUp") {
    entry[MARK] = true;
    notes.push(`left out ${collection === "leaveRequests" ? `leave request ${entry.id}` : `the balance of ${entry.employeeId} and ${entry.leaveTypeId}`}: by the data file's rules, ${what}`);
    return true;
  }
  if (field === undefined) return false;
  if (Array.isArray(entry[field]) && k !== undefined) entry[field] = entry[field].filter((_: unknown, n: number) => n !== Number(k));
  else delete entry[field];
  notes.push(`left out ${field} of ${collection.replace(/s$/, "")} ${entry.id ?? entry.name}: by the data file's rules, ${what}`);
  return true;
}

function removeMarked(file: DataFile): void {
  for (const organisation of file.organisations ?? []) {
    if (organisation.leaveRequests) organisation.leaveRequests = organisation.leaveRequests.filter((r) => !(r as Record<symbol, unknown>)[MARK]);
    if (organisation.balancesSetUp) organisation.balancesSetUp = organisation.balancesSetUp.filter((b) => !(b as Record<symbol, unknown>)[MARK]);
  }
}

function disagreementsOf(recorded: Recorded, dataset: Dataset): string[] {
  const out: string[] = [];
  const find = <T>(lookup: (org: OrganizationData) => T | undefined): [OrganizationData, T] | undefined => {
    for (const org of dataset.organizations) {
      const found = lookup(org);
      if (found !== undefined) return [org, found];
    }
    return undefined;
  };
  const compare = (what: string, seen: object | undefined, rendered: object, skip: readonly string[] = []) => {
    for (const [field, value] of Object.entries(seen ?? {})) {
      if (skip.includes(field) || !(field in rendered)) continue;
      const ours = (rendered as Record<string, unknown>)[field];
      if (JSON.stringify(value) !== JSON.stringify(ours)) out.push(`${what}: ${field} recorded ${shown(value)}, the data file's rules give ${shown(ours)}`);
    }
  };
  for (const [id, { value }] of recorded.leaveRequests) {
    const found = find((org) => org.index.leaveRequestById.get(id));
    if (!found) continue;
    const summary = leaveRequestSummary(...found);
    compare(`leave request ${id}`, value.summary, summary);
    if (value.details) compare(`leave request ${id} (details)`, value.details, leaveRequestDetails(...found), Object.keys(summary));
  }
  for (const [id, { value }] of recorded.departments) {
    const found = find((org) => org.index.departmentById.get(id));
    if (!found) continue;
    compare(`department ${id}`, value.base, departmentBase(found[1]));
    if (value.leads) compare(`department ${id}`, { leads: value.leads }, departmentSummary(...found));
    if (value.details) compare(`department ${id} (details)`, value.details, departmentDetails(...found), Object.keys(departmentBase(found[1])));
  }
  for (const [id, { value }] of recorded.leaveTypes) {
    const found = find((org) => org.index.leaveTypeById.get(id));
    if (found) compare(`leave type ${id}`, value, leaveTypeItem(found[1]));
  }
  for (const [id, { value }] of recorded.employees) {
    const found = find((org) => org.index.employeeById.get(id));
    if (found && value.listItem) compare(`employee ${id}`, value.listItem, employeeSummary(found[1]));
  }
  for (const [key, { value }] of recorded.balances) {
    const [employeeId, leaveTypeId] = key.split("|");
    const found = find((org) => (org.index.balanceSetUpByKey.has(key) || org.index.employeeById.has(employeeId) ? org : undefined));
    if (!found) continue;
    const answer = getLeaveBalance(dataset, { organizationId: found[0].id, query: { EmployeeId: employeeId, LeaveTypeId: leaveTypeId }, path: {} });
    if (answer.ok) compare(`balance of ${employeeId} and ${leaveTypeId}`, value, answer.data as object);
  }
  return out;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function capped(lines: string[], max: number): string[] {
  return lines.length <= max ? lines : [...lines.slice(0, max), `and ${lines.length - max} more disagreements`];
}
