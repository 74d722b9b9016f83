// A fetch whose every request opens a connection of its own (node:http, no agent), as a command run
// in a process of its own does. A command run in process with the test's fetch would take a
// keep-alive connection from the pool the test's own requests left, one the server may be closing
// as it is reused (ECONNRESET, seen under load); the command as users run it never has one.
import { request } from "node:http";

export async function ownConnectionFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const asked = new Request(input, init);
  const body = asked.body ? Buffer.from(await asked.arrayBuffer()) : undefined;
  return new Promise((resolve, reject) => {
    const sent = request(asked.url, { method: asked.method, headers: Object.fromEntries(asked.headers), agent: false, signal: asked.signal }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("error", reject);
      answer.on("end", () => {
        const headers = Object.entries(answer.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : (value ?? "")] as [string, string]);
        const status = answer.statusCode ?? 0;
        resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers }));
      });
    });
    sent.on("error", reject);
    sent.end(body);
  });
}
