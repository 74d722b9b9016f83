// The bench's mixed, uncached workload: distinct URLs over all seven read operations (pages,
// filters, searches, details, balances, departments, employees), built from the ids a running mock
// serves, in a seeded shuffle. Each path ends with nocache=[<id>], which autocannon makes unique per
// request, so no answer comes from the mock's response cache.
export interface MixedOptions {
  url: string;
  headers: Record<string, string>;
  /** At least this many distinct URLs (before the per-request id). */
  atLeast: number;
}

async function data(base: string, headers: Record<string, string>, path: string): Promise<any> {
  const response = await fetch(base + path, { headers });
  const body = (await response.json()) as { isSuccessful: boolean; data: any; message: string };
  if (!body.isSuccessful) throw new Error(`GET ${path}: ${response.status} ${body.message}`);
  return body.data;
}

export async function mixedPaths({ url, headers, atLeast }: MixedOptions): Promise<string[]> {
  const pages = async (path: string, count: number) => (await Promise.all(Array.from({ length: count }, (_, i) => data(url, headers, `${path}&PageNumber=${i + 1}`)))).flatMap((page) => page.data as { id: string }[]);
  const requests = await pages("/v1/leaverequest/list?PageSize=100", 10);
  const departments = (await data(url, headers, "/v1/department/list?PageSize=100")).data as { id: string }[];
  const employees = await pages("/v1/employee/list?PageSize=100", 2);
  const types = (await Promise.all([0, 1, 2, 3, 4].map(async (k) => (await data(url, headers, `/v1/leavetype/list?PageSize=100&EligibilityCriteria=${k}`)).data as { id: string }[]))).flat();
  const statuses = ["Submitted", "Pending", "Approved", "Rejected", "Abandoned", "Expired"];
  const letters = "abcdefghijklmnopqrstuvwxyz".split("");
  const paths: string[] = [];
  for (let page = 1; page <= 30; page++) for (const size of [5, 10, 25, 50]) for (const status of ["", ...statuses]) paths.push(`/v1/leaverequest/list?PageNumber=${page}&PageSize=${size}${status && `&LeaveStatus=${status}`}`);
  for (const department of departments) for (const status of ["", ...statuses]) paths.push(`/v1/leaverequest/list?DepartmentId=${department.id}${status && `&LeaveStatus=${status}`}`);
  for (const a of letters) for (const b of letters.slice(0, 16)) paths.push(`/v1/leaverequest/list?SearchTerm=${a}${b}`);
  for (const request of requests) paths.push(`/v1/leaverequest/details/${request.id}`);
  for (const employee of employees) for (const type of types.slice(0, 6)) paths.push(`/v1/leavebalance/get-leave-balance?EmployeeId=${employee.id}&LeaveTypeId=${type.id}`);
  for (const k of [0, 1, 2, 3, 4]) for (const active of ["", "&IsActive=true", "&IsActive=false"]) for (let size = 1; size <= 20; size++) paths.push(`/v1/leavetype/list?EligibilityCriteria=${k}&PageSize=${size}${active}`);
  for (let size = 1; size <= 100; size++) for (const order of [0, 1]) paths.push(`/v1/department/list?PageSize=${size}&OrderBy=${order}`);
  for (const department of departments) paths.push(`/v1/department/${department.id}`);
  for (const status of ["", "Active", "Inactive", "Terminated"]) for (let page = 1; page <= 10; page++) for (const size of [5, 10, 20, 50]) paths.push(`/v1/employee/list?PageNumber=${page}&PageSize=${size}${status && `&Status=${status}`}`);
  const distinct = [...new Set(paths)];
  if (distinct.length < atLeast) throw new Error(`the mixed workload has ${distinct.length} distinct URLs, fewer than ${atLeast}`);
  return shuffle(distinct, 20261123).map((path) => `${path}${path.includes("?") ? "&" : "?"}nocache=[<id>]`);
}

/** Fisher–Yates with a small seeded generator (mulberry32), so every run sends the same order. */
function shuffle<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
