// Records shaped by the generated types, so a field renamed in the spec breaks these at compile time.
import type { components } from "../../../generated/api.js";

type Schemas = components["schemas"];

export function leaveRequest(n: number): Schemas["LeaveRequestSummary"] {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    employeeId: "5d1c2a4e-7f3b-4e8a-b1c9-3a2d4e5f6a7b",
    employeeName: "Ada Okafor",
    leaveTypeName: "Annual leave",
    startDate: "2026-12-01T00:00:00",
    endDate: "2026-12-03T00:00:00",
    days: 3,
    leaveStatusId: 2,
    leaveStatus: "Approved",
    comments: "Family visit",
    requestedOn: "2026-11-02T09:15:30.123Z",
  };
}

export function leaveRequestPage(items: Schemas["LeaveRequestSummary"][], pageNumber: number, pageSize: number, totalRecords: number): Schemas["LeaveRequestPage"] {
  return { data: items, pageNumber, pageSize, totalRecords, totalPages: Math.ceil(totalRecords / pageSize) };
}

export const leaveRequestDetails: Schemas["LeaveRequestDetails"] = {
  ...leaveRequest(1),
  firstName: "Ada",
  lastName: "Okafor",
  workMode: "Hybrid",
  jobRoles: ["Accountant"],
  department: ["Finance"],
  documents: [],
  relievers: [{ id: "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f", fullName: "Bola Ade", email: "bola@example.com" }],
  handoffNote: "Invoices are with Bola.",
};

export const leaveBalance: Schemas["LeaveBalance"] = { totalDays: 20, daysTaken: 5, daysRemaining: 13, leavePending: 2, leaveRejected: 0 };
