// What the answers of a run revealed, record by record, for `hr-mock proxy --record`: each leave
// request, leave type, department, employee and balance seen, with the fields the answers showed
// (a later answer adds to what an earlier one showed), and which organisation each belongs to. The
// organisation is told by the key that asked, never kept itself (a hash stands for it): two keys
// that see the same record are one organisation. Bounded: past `maxRecords` records, new ones are
// counted, not kept.
import { createHash } from "node:crypto";
import type { components } from "../../../../generated/api.js";
import { parameters } from "../../../../generated/facts.js";
import type { OperationId } from "../../../../src/contract/openapi.js";
import type { RecordingSink } from "../observer.js";

type Schemas = components["schemas"];

export interface SeenEmployee {
  code?: string;
  firstName?: string;
  lastName?: string;
  fullName?: string;
  email?: string;
  workMode?: Schemas["WorkMode"];
  jobRoles?: string[];
  /** From a leave request's details: the department's name. */
  departmentName?: string;
  /** From a department's leads or leaders: they head it, so they are its members. */
  departmentId?: string;
  status?: Schemas["EmployeeStatus"];
  /** As an employee list item showed it. */
  listItem?: Schemas["EmployeeSummary"];
}

export interface SeenDepartment {
  base?: Schemas["DepartmentBase"];
  leads?: Schemas["DepartmentLead"][];
  details?: Schemas["DepartmentDetails"];
}

export interface SeenLeaveRequest {
  summary: Schemas["LeaveRequestSummary"];
  details?: Schemas["LeaveRequestDetails"];
}

/** Records of one kind, by id, each with the organisation (a group) it was seen in. */
export interface Kept<T> {
  group: number;
  value: T;
}

export interface Recorded {
  leaveRequests: Map<string, Kept<SeenLeaveRequest>>;
  leaveTypes: Map<string, Kept<Schemas["LeaveType"]>>;
  departments: Map<string, Kept<SeenDepartment>>;
  employees: Map<string, Kept<SeenEmployee>>;
  /** By `employeeId|leaveTypeId`. */
  balances: Map<string, Kept<Schemas["LeaveBalance"]>>;
  /** The organisation of a group: groups merged into one point at the same root. */
  organisationOf(group: number): number;
  /** Records seen past the bound, not kept. */
  dropped: number;
}

/** Records kept at most. */
const MAX_RECORDS = 200_000;

/** `summaryFields`: those of a leave request's list item (the spec's LeaveRequestSummary), kept from list and details alike. */
export function createRecorder(summaryFields: readonly string[]): RecordingSink & { readonly recorded: Recorded } {
  const groups = new Map<string, number>();
  const parent: number[] = [];
  const root = (g: number): number => (parent[g] === g ? g : (parent[g] = root(parent[g])));
  const recorded: Recorded = { leaveRequests: new Map(), leaveTypes: new Map(), departments: new Map(), employees: new Map(), balances: new Map(), organisationOf: root, dropped: 0 };
  let count = 0;

  /** The record of `id` in `map`, made when new (then undefined past the bound); the groups it joins are merged. */
  function kept<T extends object>(map: Map<string, Kept<T>>, id: unknown, group: number, make: () => T): T | undefined {
    if (typeof id !== "string" || id === "") return undefined;
    const key = id.toLowerCase();
    const found = map.get(key);
    if (found) {
      const [a, b] = [root(found.group), root(group)];
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      return found.value;
    }
    if (count >= MAX_RECORDS) {
      recorded.dropped++;
      return undefined;
    }
    count++;
    const value = make();
    map.set(key, { group, value });
    return value;
  }
  const employee = (id: unknown, group: number) => kept(recorded.employees, id, group, () => ({}) as SeenEmployee);

  function take(op: OperationId, query: readonly [string, string][], body: unknown, caller: string): void {
    const fingerprint = createHash("sha256").update(caller).digest("hex");
    let group = groups.get(fingerprint);
    if (group === undefined) {
      group = parent.length;
      parent.push(group);
      groups.set(fingerprint, group);
    }
    const data = (body as { data?: any }).data;
    const items: any[] = Array.isArray(data?.data) ? data.data : [];
    switch (op) {
      case "listLeaveRequests":
        for (const item of items) seenRequest(item, undefined, group);
        break;
      case "getLeaveRequest":
        seenRequest(data, data, group);
        break;
      case "listLeaveTypes":
        for (const item of items) {
          const type = kept(recorded.leaveTypes, item?.id, group, () => item);
          if (type) Object.assign(type, item);
        }
        break;
      case "listDepartments":
        for (const item of items) {
          const { leads, ...base } = item ?? {};
          const department = kept(recorded.departments, item?.id, group, () => ({}) as SeenDepartment);
          if (!department) continue;
          Object.assign(department, { base, leads });
          for (const lead of Array.isArray(leads) ? leads : []) seenHead(lead, item.id, group, "firstName");
        }
        break;
      case "getDepartment": {
        const department = kept(recorded.departments, data?.id, group, () => ({}) as SeenDepartment);
        if (!department) break;
        const { leaders, description, companyId, ...base } = data;
        Object.assign(department, { base, details: data });
        for (const leader of Array.isArray(leaders) ? leaders : []) seenHead(leader, data.id, group, "fullName");
        break;
      }
      case "listEmployees": {
        const status = valueOf(query, parameters.EmployeeStatusFilter.name);
        for (const item of items) {
          const seen = employee(item?.id, group);
          if (!seen) continue;
          Object.assign(seen, { listItem: item, code: item.employeeId, firstName: item.firstName, lastName: item.lastName });
          if (status) seen.status = status as SeenEmployee["status"];
        }
        break;
      }
      case "getLeaveBalance": {
        const employeeId = valueOf(query, parameters.BalanceEmployeeId.name)?.toLowerCase();
        const leaveTypeId = valueOf(query, parameters.BalanceLeaveTypeId.name)?.toLowerCase();
        if (employeeId && leaveTypeId) {
          const balance = kept(recorded.balances, `${employeeId}|${leaveTypeId}`, group, () => data);
          if (balance) Object.assign(balance, data);
          employee(employeeId, group);
        }
        break;
      }
    }
  }

  function seenRequest(item: any, details: any, group: number): void {
    const request = kept(recorded.leaveRequests, item?.id, group, () => ({ summary: {} }) as SeenLeaveRequest);
    if (!request) return;
    request.summary = { ...request.summary, ...Object.fromEntries(summaryFields.filter((f) => f in item).map((f) => [f, item[f]])) };
    if (details) request.details = details;
    const person = employee(item.employeeId, group);
    if (!person) return;
    person.fullName = item.employeeName;
    if (details) {
      Object.assign(person, { firstName: details.firstName, lastName: details.lastName, workMode: details.workMode, jobRoles: details.jobRoles });
      if (Array.isArray(details.department) && details.department.length > 0) person.departmentName = details.department[0];
      for (const reliever of Array.isArray(details.relievers) ? details.relievers : []) {
        const colleague = employee(reliever?.id, group);
        if (colleague) Object.assign(colleague, { fullName: reliever.fullName, email: reliever.email });
      }
    }
  }

  function seenHead(head: any, departmentId: string, group: number, field: "firstName" | "fullName"): void {
    const person = employee(head?.id, group);
    if (!person) return;
    person[field] = head.name;
    person.departmentId = departmentId.toLowerCase();
    person.status = "Active";
  }

  return { recorded, take };
}

function valueOf(query: readonly [string, string][], name: string): string | undefined {
  let found: string | undefined;
  for (const [key, value] of query) if (key.toLowerCase() === name.toLowerCase() && value !== "") found = value;
  return found;
}
