// A dataset as a data file (hr-mock export, GET /_mock/data): the fields the format takes and
// nothing the mock derives, so `--data` builds the same records back. Pure: the YAML writer is
// format-data-file.ts, which the control API's code (in a page's bundle) does not load.
import type { DataFile } from "./data-file.js";
import type { Dataset } from "./dataset.js";
import type { OrganizationData } from "./organization.js";
import { leaveTypeTerms } from "./records.js";
import { LEAVE_STATUS_NAMES } from "./statuses.js";

type Organisation = NonNullable<DataFile["organisations"]>[number];

export function datasetToDataFile(dataset: Dataset): DataFile {
  return { today: dataset.today, organisations: dataset.organizations.map(organisationOf) };
}

function organisationOf(org: OrganizationData): Organisation {
  return {
    id: org.id,
    name: org.name,
    domain: org.domain,
    companies: org.companies.map((c) => ({ id: c.id, name: c.name })),
    departments: org.departments.map((d) => ({
      id: d.id,
      companyId: d.companyId,
      name: d.name,
      description: d.description,
      status: d.status,
      created: d.created,
      units: d.units.map((u) => ({ id: u.id, name: u.name })),
      leadIds: [...d.leadIds],
    })),
    employees: org.employees.map((e) => ({
      id: e.id,
      code: e.code,
      firstName: e.firstName,
      lastName: e.lastName,
      email: e.email,
      sex: e.sex,
      workMode: e.workMode,
      jobRoles: [...e.jobRoles],
      departmentId: e.departmentId,
      unitId: e.unitId,
      daysOff: [...e.daysOff],
      status: e.status,
    })),
    leaveTypes: org.leaveTypes.map((t) => ({
      ...leaveTypeTerms(t),
      eligibleIds: [...t.eligibleIds],
      forSex: t.forSex,
      requiredDocument: t.requiredDocument.map((d) => ({ id: d.id, name: d.name, document: d.document })),
      isActive: t.isActive,
      created: t.created,
      lastModified: t.lastModified,
    })),
    leaveRequests: org.leaveRequests.map((r) => ({
      id: r.id,
      employeeId: r.employeeId,
      leaveTypeId: r.leaveTypeId,
      startDate: r.startDate,
      endDate: r.endDate,
      status: LEAVE_STATUS_NAMES[r.statusId],
      comments: r.comments,
      requestedOn: r.requestedOn,
      documents: r.documents.map((d) => ({ id: d.id, name: d.name, mime: d.mime, document: d.document })),
      relieverIds: [...r.relieverIds],
      handoffNote: r.handoffNote,
    })),
    holidays: org.holidays.map((h) => ({ date: h.date, name: h.name })),
    balancesSetUp: org.balanceSetUps.map((b) => ({ employeeId: b.employeeId, leaveTypeId: b.leaveTypeId, carriedForwardDays: b.carriedForwardDays })),
  };
}
