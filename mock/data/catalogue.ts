// Fixed, realistic vocabulary the generator draws from: organisations, departments, job roles,
// leave types, notes. Only the picks and counts come from the seeded faker.
import type { HolidayRule } from "./holidays.js";

const UK_HOLIDAYS: HolidayRule[] = [
  { kind: "fixed", name: "New Year's Day", month: 1, day: 1 },
  { kind: "easter", name: "Good Friday", offset: -2 },
  { kind: "easter", name: "Easter Monday", offset: 1 },
  { kind: "nth-weekday", name: "Early May Bank Holiday", month: 5, weekday: 1, n: 1 },
  { kind: "nth-weekday", name: "Spring Bank Holiday", month: 5, weekday: 1, n: -1 },
  { kind: "nth-weekday", name: "Summer Bank Holiday", month: 8, weekday: 1, n: -1 },
  { kind: "fixed", name: "Christmas Day", month: 12, day: 25 },
  { kind: "fixed", name: "Boxing Day", month: 12, day: 26 },
];

const US_HOLIDAYS: HolidayRule[] = [
  { kind: "fixed", name: "New Year's Day", month: 1, day: 1 },
  { kind: "nth-weekday", name: "Martin Luther King Jr. Day", month: 1, weekday: 1, n: 3 },
  { kind: "nth-weekday", name: "Presidents' Day", month: 2, weekday: 1, n: 3 },
  { kind: "nth-weekday", name: "Memorial Day", month: 5, weekday: 1, n: -1 },
  { kind: "fixed", name: "Juneteenth", month: 6, day: 19 },
  { kind: "fixed", name: "Independence Day", month: 7, day: 4 },
  { kind: "nth-weekday", name: "Labor Day", month: 9, weekday: 1, n: 1 },
  { kind: "nth-weekday", name: "Thanksgiving Day", month: 11, weekday: 4, n: 4 },
  { kind: "fixed", name: "Christmas Day", month: 12, day: 25 },
];

/** The generated organisations: employees and leave requests are counts at scale 1, annualDays the Annual Leave allowance. */
export const ORGANIZATION_PROFILES = [
  {
    name: "Harbourline Group",
    domain: "harbourline.example",
    companies: ["Harbourline Logistics", "Harbourline Retail", "Harbourline Digital", "Harbourline Property"],
    employees: 164,
    leaveRequests: 1150,
    holidays: UK_HOLIDAYS,
    annualDays: 25,
  },
  {
    name: "Kestrel & Finch Holdings",
    domain: "kestrelfinch.example",
    companies: ["Kestrel Manufacturing", "Finch Health", "Kestrel & Finch Capital"],
    employees: 172,
    leaveRequests: 1120,
    holidays: US_HOLIDAYS,
    annualDays: 20,
  },
];
export type OrganizationProfile = (typeof ORGANIZATION_PROFILES)[number];

export const DEPARTMENT_TEMPLATES = [
  { name: "Finance", description: "Runs payroll, accounts payable and the yearly audit.", roles: ["Accountant", "Payroll Analyst", "Financial Controller", "Accounts Payable Clerk", "Finance Manager"], units: ["Payroll", "Accounts Payable", "Treasury", "Audit"] },
  { name: "Engineering", description: "Builds and runs the company's software and systems.", roles: ["Software Engineer", "Senior Software Engineer", "QA Engineer", "DevOps Engineer", "Engineering Manager"], units: ["Platform", "Web", "Mobile", "Data"] },
  { name: "Human Resources", description: "Hires, onboards and supports the people of the company.", roles: ["HR Generalist", "Recruiter", "HR Business Partner", "People Operations Lead"], units: ["Recruitment", "People Operations", "Learning"] },
  { name: "Sales", description: "Wins new customers and grows existing accounts.", roles: ["Account Executive", "Sales Development Representative", "Key Account Manager", "Sales Manager"], units: ["Inbound", "Enterprise", "Partnerships"] },
  { name: "Marketing", description: "Looks after the brand, campaigns and events.", roles: ["Marketing Specialist", "Content Writer", "Brand Manager", "Growth Marketer"], units: ["Brand", "Content", "Events"] },
  { name: "Operations", description: "Keeps sites, fleet and supplies running day to day.", roles: ["Operations Analyst", "Operations Manager", "Facilities Coordinator", "Supply Chain Planner"], units: ["Facilities", "Supply Chain", "Fleet"] },
  { name: "Customer Support", description: "Answers customers by phone, chat and email.", roles: ["Support Agent", "Customer Success Manager", "Support Team Lead"], units: ["Tier 1", "Tier 2", "Onboarding"] },
  { name: "Legal", description: "Drafts contracts and keeps the company compliant.", roles: ["Legal Counsel", "Paralegal", "Compliance Officer"], units: ["Contracts", "Compliance"] },
  { name: "Procurement", description: "Buys goods and services and manages vendors.", roles: ["Buyer", "Procurement Officer", "Vendor Manager"], units: ["Sourcing", "Vendor Management"] },
  { name: "IT Services", description: "Runs the service desk, devices and networks.", roles: ["IT Support Technician", "Systems Administrator", "Network Engineer"], units: ["Service Desk", "Infrastructure", "Security"] },
  { name: "Research & Development", description: "Designs and tests new products.", roles: ["Research Scientist", "Product Designer", "Lab Technician"], units: ["Prototyping", "Research"] },
  { name: "Quality Assurance", description: "Inspects products and processes against standards.", roles: ["Quality Inspector", "Quality Manager"], units: ["Inspection", "Audit"] },
];
export type DepartmentTemplate = (typeof DEPARTMENT_TEMPLATES)[number];

export interface LeaveTypeTemplate {
  name: string;
  description: string;
  /** Days a year; null takes the organisation's annual allowance. */
  maxLeaveDays: number | null;
  carry: [limit: number, expiryMonth: number];
  eligibility: 0 | 1 | 2 | 3 | 4;
  forSex: "female" | "male" | null;
  /** Required document templates (file names); empty when none is required. */
  documents: string[];
  isActive: boolean;
  /** Relative share of the requests. */
  weight: number;
  /** Working days of one request, smallest and largest. */
  length: [min: number, max: number];
  comments: string[];
}

export const LEAVE_TYPE_TEMPLATES: LeaveTypeTemplate[] = [
  { name: "Annual Leave", description: "Paid time off for rest and holidays.", maxLeaveDays: null, carry: [5, 2], eligibility: 0, forSex: null, documents: [], isActive: true, weight: 48, length: [1, 8],
    comments: ["Family trip over the holidays.", "Visiting my parents.", "Short break after the release.", "Wedding of a close friend.", "Moving house.", "Beach holiday with the kids.", "Long weekend away.", "Hiking trip in the mountains."] },
  { name: "Sick Leave", description: "Paid time off when the employee is unwell.", maxLeaveDays: 12, carry: [0, 0], eligibility: 0, forSex: null, documents: ["Medical certificate"], isActive: true, weight: 18, length: [1, 5],
    comments: ["Flu, doctor's note attached.", "Recovering from a minor operation.", "Migraine and fever.", "Back pain, advised to rest.", "Dental surgery."] },
  { name: "Compassionate Leave", description: "Time off after the death or serious illness of a close relative.", maxLeaveDays: 5, carry: [0, 0], eligibility: 0, forSex: null, documents: [], isActive: true, weight: 3, length: [1, 4],
    comments: ["Funeral of my grandmother.", "Caring for a parent in hospital.", "Family bereavement."] },
  { name: "Unpaid Leave", description: "Time off without pay, agreed with the line manager.", maxLeaveDays: 30, carry: [0, 0], eligibility: 0, forSex: null, documents: [], isActive: true, weight: 4, length: [2, 10],
    comments: ["Extended travel.", "Personal matters abroad.", "Helping family with a move."] },
  { name: "Volunteering Leave", description: "Paid days for community volunteering (retired scheme).", maxLeaveDays: 2, carry: [0, 0], eligibility: 0, forSex: null, documents: [], isActive: false, weight: 3, length: [1, 2],
    comments: ["Food bank shift.", "Beach clean-up with the local club.", "Charity run marshal."] },
  { name: "Maternity Leave", description: "Leave before and after the birth of a child.", maxLeaveDays: 90, carry: [0, 0], eligibility: 1, forSex: "female", documents: ["Maternity certificate"], isActive: true, weight: 1, length: [40, 90],
    comments: ["Expected due date in the first week.", "Maternity leave as agreed with HR."] },
  { name: "Paternity Leave", description: "Leave for a new father around the birth of a child.", maxLeaveDays: 10, carry: [0, 0], eligibility: 1, forSex: "male", documents: ["Birth certificate"], isActive: true, weight: 2, length: [5, 10],
    comments: ["Our baby is due this month.", "Paternity leave after the birth of our daughter."] },
  { name: "Study Leave", description: "Time off for exams and courses related to the job.", maxLeaveDays: 10, carry: [3, 5], eligibility: 2, forSex: null, documents: ["Exam timetable"], isActive: true, weight: 6, length: [1, 4],
    comments: ["Final exams of my certification.", "Professional accounting exam.", "Cloud certification course.", "Part-time degree exams."] },
  { name: "Time Off in Lieu", description: "Days back for weekend and night shifts worked.", maxLeaveDays: 8, carry: [2, 0], eligibility: 3, forSex: null, documents: [], isActive: true, weight: 8, length: [1, 2],
    comments: ["Worked the weekend stock count.", "Covered the night shift last week.", "Weekend on-call."] },
  { name: "Sabbatical Leave", description: "Extended leave granted to named long-serving employees.", maxLeaveDays: 60, carry: [0, 0], eligibility: 4, forSex: null, documents: ["Sabbatical agreement"], isActive: true, weight: 1, length: [15, 40],
    comments: ["Sabbatical to travel through South America.", "Sabbatical for a writing project."] },
];

export const HANDOFF_TASKS = [
  "Month-end reconciliation",
  "The sprint review",
  "Open support tickets",
  "Vendor calls",
  "The weekly report",
  "Client onboarding calls",
  "The stock count",
  "Interview scheduling",
  "Contract renewals",
  "On-call duty",
  "The payroll run",
  "Campaign approvals",
];

export const OPTIONAL_DOCUMENTS: { name: string; mime: string }[] = [
  { name: "travel-itinerary.pdf", mime: "application/pdf" },
  { name: "booking-confirmation.pdf", mime: "application/pdf" },
  { name: "invitation.jpg", mime: "image/jpeg" },
  { name: "course-schedule.png", mime: "image/png" },
];

export const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
