import { constructEventAsync, isWebhookError } from "hr-service-contract/webhooks";

// A Cloudflare Worker; the same fetch handler serves Deno.serve, Bun.serve and Vercel Edge functions.
export default {
  async fetch(request: Request, env: { HR_WEBHOOK_SECRET: string }): Promise<Response> {
    const body = new Uint8Array(await request.arrayBuffer()); // the raw bytes: the signature covers them
    try {
      const event = await constructEventAsync(body, request.headers, env.HR_WEBHOOK_SECRET);
      if (event.type === "leave.approved") console.log("book", event.data.employeeId, event.data.startDate);
      return Response.json({ received: true });
    } catch (error) {
      if (isWebhookError(error)) return Response.json({ error: error.reason }, { status: 400 });
      throw error;
    }
  },
};
