import { startMock } from "hr-service-mock";
import { createClient, HrApiError } from "hr-service-contract/client";

const mock = await startMock({ port: 0 }); // or `npm start`, then baseUrl http://127.0.0.1:4010
const hr = createClient({ baseUrl: mock.url, apiKey: "demo_org1_full" });
try {
  const [department] = (await hr.listDepartments({ PageSize: 1 })).data;
  const page = await hr.listLeaveRequests({ DepartmentId: department.id, LeaveStatus: "Approved" });
  console.log(`${department.name}: ${page.totalRecords} approved`, page.data.map((leave) => leave.employeeName));
  for await (const leave of hr.iterate("listLeaveRequests", { DepartmentId: department.id })) console.log(leave.leaveStatus, leave.startDate);
} catch (error) {
  if (error instanceof HrApiError) console.error(`${error.kind} (HTTP ${error.status}): ${error.message}`);
  else throw error;
} finally {
  await mock.close();
}
