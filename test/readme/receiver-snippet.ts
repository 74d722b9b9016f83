import http from "node:http";
import { createReceiver } from "hr-service-contract/webhooks/node";

const receiver = createReceiver({
  secret: process.env.HR_WEBHOOK_SECRET ?? "whsec_…", // shown once when the endpoint is added
  onEvent(event) {
    // Verified, parsed and deduplicated by event id; answered 200 before this runs.
    if (event.type === "leave.approved") console.log("book", event.data.employeeId, event.data.startDate, event.data.endDate);
    else console.log(event.type, event.id);
  },
});
http.createServer(receiver).listen(3000, "127.0.0.1");
