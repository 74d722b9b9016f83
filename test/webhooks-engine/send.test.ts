// One delivery attempt on the wire (mock/webhooks/send.ts): every way an attempt can end is an
// outcome the engine logs; send() never rejects, so no attempt can leave its lane counting it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterAll, describe, expect, test } from "vitest";
import { createAgent, send, type SendOutcome } from "../../mock/webhooks/send.js";

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<URL> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return new URL(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hooks`);
}

const BODY = Buffer.from('{"id":"x"}');
const HEADERS = { "Content-Type": "application/json; charset=utf-8", "Content-Length": BODY.length };

type Want = { status: number | undefined; error: RegExp | undefined };
const cases: Array<[string, { given: { handler: (req: IncomingMessage, res: ServerResponse) => void; headers?: Record<string, string | number> }; want: Want }]> = [
  ["a 204 without a body", { given: { handler: (req, res) => (req.resume(), res.writeHead(204).end()) }, want: { status: 204, error: undefined } }],
  ["a 302 (not followed)", { given: { handler: (req, res) => (req.resume(), res.writeHead(302, { Location: "http://127.0.0.1:1/" }).end()) }, want: { status: 302, error: undefined } }],
  [
    "a connection closed before any answer",
    { given: { handler: (req, res) => req.on("end", () => res.socket?.destroy()).resume() }, want: { status: undefined, error: /ECONNRESET|socket hang up/ } },
  ],
  [
    "an answer cut off mid-body",
    {
      given: {
        handler: (req, res) => {
          req.resume();
          res.writeHead(200, { "Content-Length": "100" });
          res.write("0123456789", () => res.socket?.destroy());
        },
      },
      want: { status: 200, error: /aborted|ECONNRESET/ },
    },
  ],
  [
    "a header value node refuses to send",
    { given: { handler: (req, res) => (req.resume(), res.writeHead(200).end()), headers: { "X-Bad": "line\nbreak" } }, want: { status: undefined, error: /header/i } },
  ],
];

describe("send: every ending is an outcome, never a rejection", () => {
  test.each(cases)("%s", async (_name, { given, want }) => {
    const url = await serve(given.handler);
    const agent = createAgent(url, 1);
    let outcome: SendOutcome;
    try {
      outcome = await send(url, agent, { ...HEADERS, ...given.headers }, BODY, 5_000);
    } finally {
      agent.destroy();
    }
    expect(outcome.status, JSON.stringify(outcome)).toBe(want.status);
    if (want.error) expect(outcome.error, JSON.stringify(outcome)).toMatch(want.error);
    else expect(outcome.error, JSON.stringify(outcome)).toBeUndefined();
  });
});
