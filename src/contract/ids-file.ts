// The --ids file: ids the suite cannot learn from the lists (an empty list, a real service), and
// optionally ids of another organisation to check that a key reaches only its own.

export interface ForeignIds {
  leaveRequestId?: string;
  departmentId?: string;
  employeeId?: string;
  leaveTypeId?: string;
}

export interface KnownIds {
  leaveRequestId?: string;
  employeeId?: string;
  leaveTypeId?: string;
  departmentId?: string;
  companyId?: string;
  otherOrganization?: ForeignIds;
}

/** The keys the file may hold (the --help text lists them from here). */
export const OWN_KEYS = ["leaveRequestId", "employeeId", "leaveTypeId", "departmentId", "companyId"] as const;
export const FOREIGN_KEYS = ["leaveRequestId", "departmentId", "employeeId", "leaveTypeId"] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function pick(source: Record<string, unknown>, keys: readonly string[], where: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === "otherOrganization" && where === "") continue;
    if (!keys.includes(key)) throw new Error(`unknown key ${JSON.stringify(`${where}${key}`)} (known: ${keys.join(", ")}${where === "" ? ", otherOrganization" : ""})`);
    if (typeof value !== "string" || !UUID.test(value)) throw new Error(`${where}${key} must be a uuid, got ${JSON.stringify(value)}`);
    out[key] = value;
  }
  return out;
}

/** The JSON in a file's text; throws an Error with one line ("not JSON (…)") when it is none. */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON (${(error as Error).message})`);
  }
}

/** Parses the text of an ids file; throws an Error with a one-line message when it is not usable. */
export function parseIdsFile(text: string): KnownIds {
  const json = jsonOf(text);
  if (!json || typeof json !== "object" || Array.isArray(json)) throw new Error("must be a JSON object");
  const source = json as Record<string, unknown>;
  const ids: KnownIds = pick(source, OWN_KEYS, "");
  if (source.otherOrganization !== undefined) {
    const other = source.otherOrganization;
    if (!other || typeof other !== "object" || Array.isArray(other)) throw new Error("otherOrganization must be an object");
    ids.otherOrganization = pick(other as Record<string, unknown>, FOREIGN_KEYS, "otherOrganization.");
  }
  return ids;
}
