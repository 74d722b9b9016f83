// Who a leave type covers (eligibilityCriteria 0..4) and which companies it applies to.
import type { EmployeeRecord, LeaveTypeRecord } from "./records.js";

export function isEligible(type: Pick<LeaveTypeRecord, "eligibilityCriteria" | "eligibleIds" | "forSex">, employee: EmployeeRecord): boolean {
  if (type.forSex !== null && type.forSex !== employee.sex) return false;
  switch (type.eligibilityCriteria) {
    case 0:
      return true;
    case 1:
      return type.eligibleIds.includes(employee.companyId);
    case 2:
      return type.eligibleIds.includes(employee.departmentId);
    case 3:
      return employee.unitId !== null && type.eligibleIds.includes(employee.unitId);
    case 4:
      return type.eligibleIds.includes(employee.id);
  }
}

/** The companies a leave type applies to (the list's CompanyId x-assumption): all for criteria 0, else those of its eligible ids. */
export function companiesOfEligibility(
  eligibilityCriteria: LeaveTypeRecord["eligibilityCriteria"],
  eligibleIds: readonly string[],
  lookup: {
    companyIds: readonly string[];
    companyOfDepartment: (id: string) => string | undefined;
    companyOfUnit: (id: string) => string | undefined;
    companyOfEmployee: (id: string) => string | undefined;
  },
): string[] {
  const of = (find: (id: string) => string | undefined) =>
    [...new Set(eligibleIds.map(find).filter((c): c is string => c !== undefined))];
  switch (eligibilityCriteria) {
    case 0:
      return [...lookup.companyIds];
    case 1:
      return [...new Set(eligibleIds)];
    case 2:
      return of(lookup.companyOfDepartment);
    case 3:
      return of(lookup.companyOfUnit);
    case 4:
      return of(lookup.companyOfEmployee);
  }
}
