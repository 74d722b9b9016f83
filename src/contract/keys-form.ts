// The form of a keys file (hr-mock serve --keys, startMock's and createHandlers' keys, hr-contract
// pact --keys): the fields an entry may have, and the permission names a key may hold (the spec's
// x-permission values and the one the AsyncAPI document names for webhook settings, generated).
import { permissions } from "../../generated/facts.js";
import { webhookPermission } from "../../generated/webhook-facts.js";

export const KEY_FIELDS: readonly string[] = ["key", "organisation", "permissions", "label"];

export const KNOWN_PERMISSIONS: readonly string[] = [...Object.values(permissions), webhookPermission];
