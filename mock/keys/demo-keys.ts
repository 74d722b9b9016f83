// The demo API keys: fixed strings, the same for every seed, so the README, the banner and tests can
// name them. A key belongs to an organisation by its position in the dataset (1 or 2), so it works
// whatever the seed. The permission names are the spec's x-permission values, plus the one the
// AsyncAPI document names for the web application's webhook settings (generated facts).
import { permissions } from "../../generated/facts.js";
import { webhookPermission } from "../../generated/webhook-facts.js";

export const LEAVE_VIEW: string = permissions.leaveView;
export const EMPLOYEE_MANAGEMENT_VIEW: string = permissions.employeeManagementView;
export const MANAGE_WEBHOOKS: string = webhookPermission;

/** A key as a keys file (or the demo list) defines it. */
export interface KeySpec {
  key: string;
  /** 1 or 2 (the dataset's first or second organisation), or an organisation id. */
  organisation: number | string;
  permissions: string[];
  /** Who the key is, for the banner and the request log (which never print a key). */
  label: string;
}

/** What every demo key begins with. */
export const DEMO_KEY_PREFIX = "demo_";
/** What every sandbox key begins with: then the sandbox's random part and the demo key it copies, without DEMO_KEY_PREFIX (worlds/world.ts makes them). */
export const SANDBOX_KEY_PREFIX = "sbx_";

/** The demo keys by a short name, for code and tests: `DEMO_KEY.org1Full`. */
export const DEMO_KEY = {
  org1LeaveView: "demo_org1_leave_view",
  org1EmployeeView: "demo_org1_employee_view",
  org1Full: "demo_org1_full",
  org1NoPermissions: "demo_org1_no_permissions",
  org1WebhooksAdmin: "demo_org1_webhooks_admin",
  org2Full: "demo_org2_full",
} as const;

export const DEMO_KEYS: readonly KeySpec[] = [
  { key: DEMO_KEY.org1LeaveView, organisation: 1, permissions: [LEAVE_VIEW], label: "org 1, leave only" },
  { key: DEMO_KEY.org1EmployeeView, organisation: 1, permissions: [EMPLOYEE_MANAGEMENT_VIEW], label: "org 1, employee management only" },
  { key: DEMO_KEY.org1Full, organisation: 1, permissions: [LEAVE_VIEW, EMPLOYEE_MANAGEMENT_VIEW], label: "org 1, leave and employee management" },
  { key: DEMO_KEY.org1NoPermissions, organisation: 1, permissions: [], label: "org 1, no permissions" },
  {
    key: DEMO_KEY.org1WebhooksAdmin,
    organisation: 1,
    permissions: [LEAVE_VIEW, EMPLOYEE_MANAGEMENT_VIEW, MANAGE_WEBHOOKS],
    label: "org 1, full access with webhooks",
  },
  {
    key: DEMO_KEY.org2Full,
    organisation: 2,
    permissions: [LEAVE_VIEW, EMPLOYEE_MANAGEMENT_VIEW, MANAGE_WEBHOOKS],
    label: "org 2, full access with webhooks",
  },
];
