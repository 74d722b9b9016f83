// hr-service-mock as installed from its tarball, with its state in Redis (issue 30): checked inside
// the package test's own install (package.test.ts calls sharedStateChecks), on a redis-server this
// starts (Debian's, scripts/lib/redis-server.ts) with a password.
// - the bundle: ioredis sits in a chunk of its own that only an import() reaches, so hr-mock --help,
//   serve and startMock without --state load none of it (the sources' side: test/architecture/lazy-libraries.test.ts);
// - the installed `hr-mock serve --state redis://…` answers a request, its state in Redis, and its
//   banner says the state is shared, the password masked, and its GET /_mock/metrics answers (the
//   bundled prom-client); a wrong password is one line and exit 1.
import { spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedis, type RedisServer } from "../../scripts/lib/redis-server.js";

export interface InstalledMock {
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
}

export interface InstalledProject {
  /** The project with both packages installed from their tarballs. */
  project: () => string;
  /** Starts its hr-mock serve with `args`, once its banner holds `until`. */
  start: (project: string, args: string[], until: RegExp) => Promise<InstalledMock>;
}

/** How esbuild names a bundled CommonJS module in its output: the one file holding ioredis has this. */
const IOREDIS_MODULE = '"node_modules/ioredis/built/index.js"';
const PASSWORD = "pkg-test-redis-password";

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : entry.name.endsWith(".js") ? [path.join(dir, entry.name)] : []));
}

export function sharedStateChecks({ project, start }: InstalledProject): void {
  describe("installed with the mock, its state in Redis (--state redis://)", () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedis({ password: PASSWORD });
    }, 60_000);
    afterAll(() => redis?.close());

    it("ioredis sits in a chunk of its own that only an import() reaches", () => {
      const dist = path.join(project(), "node_modules", "hr-service-mock", "dist");
      const files = filesUnder(dist).map((file) => ({ name: path.relative(dist, file), text: fs.readFileSync(file, "utf8") }));
      const holding = files.filter((file) => file.text.includes(IOREDIS_MODULE)).map((file) => file.name);
      expect(holding, "files of the installed bundle that hold ioredis").toHaveLength(1);
      const chunk = path.basename(holding[0]);
      // The chunk's name is looked for first: a pattern tried at every position of ~20 MB of code costs a second.
      const quoted = new RegExp(`["'][^"']*/${chunk.replace(/[.$]/g, "\\$&")}["']`, "g");
      const references = files
        .filter((file) => file.text.includes(chunk))
        .flatMap((file) => [...file.text.matchAll(quoted)].map((m) => ({ file: file.name, dynamic: /import\(\s*$/.test(file.text.slice(Math.max(0, m.index - 7), m.index)) })));
      expect(references.length, `files that load ${holding[0]}`).toBeGreaterThan(0);
      expect(references.filter((r) => !r.dynamic).map((r) => r.file), `files that import ${holding[0]} statically (it would load with them)`).toEqual([]);
    });

    it("hr-mock serve --state redis://… answers from Redis state and says so on its banner, the password masked; a wrong password is one line, exit 1", async () => {
      // --drain 0: the stop below waits for the exit (the output complete), not for the default 5 s drain.
      const mock = await start(project(), ["--state", redis.url, "--drain", "0"], /^State shared through /m);
      try {
        expect(mock.stdout(), "the banner's line about the shared state").toMatch(new RegExp(`^State shared through redis://:\\*\\*\\*@127\\.0\\.0\\.1:${redis.port}: every replica`, "m"));
        const answer = await fetch(`${mock.url}/v1/leaverequest/list?PageSize=1`, { headers: { authorization: "Bearer demo_org1_full" } });
        expect(answer.status, "a demo key's list request").toBe(200);
        // The Prometheus client, bundled in a chunk of its own, loads with the first scrape.
        const metrics = await (await fetch(`${mock.url}/_mock/metrics`)).text();
        expect(metrics, "the installed mock's metrics").toContain('hr_mock_requests_total{operation="listLeaveRequests",status="200"} 1\n');
        expect(metrics, "the installed mock's metrics").toContain("hr_mock_store_up 1\n");
        expect(Number(await redis.cli("DBSIZE")), "keys the mock keeps in Redis").toBeGreaterThan(0);
        expect(mock.stdout() + mock.stderr(), "what hr-mock printed").not.toContain(PASSWORD);
      } finally {
        const exited = new Promise((resolve) => mock.child.once("exit", resolve));
        mock.child.kill("SIGTERM");
        await exited;
      }
      // The password on the command line works, with its one warning line; the wrong one comes as a
      // Kubernetes Secret would give it, in HR_MOCK_REDIS_PASSWORD, so that its error is the only line.
      expect(mock.stderr().match(/warning: a password on the command line/g), "the warning, once").toHaveLength(1);
      const env = { ...process.env, HR_MOCK_REDIS_PASSWORD: `not-${PASSWORD}` };
      const wrong = spawnSync(process.execPath, [path.join(project(), "node_modules", ".bin", "hr-mock"), "serve", "--port", "0", "--state", `redis://127.0.0.1:${redis.port}`], { cwd: project(), encoding: "utf8", env, timeout: 60_000 });
      expect(wrong.status, `exit status with a wrong password; stderr: ${wrong.stderr}`).toBe(1);
      expect(wrong.stderr.trim().split("\n"), "stderr is one line, not a stack trace").toHaveLength(1);
      // The address as it was given (no password in it), and where the refused password came from.
      expect(wrong.stderr).toMatch(new RegExp(`^hr-mock serve: --state redis://127\\.0\\.0\\.1:${redis.port}: Redis refused the password \\(or user\\) from HR_MOCK_REDIS_PASSWORD`));
      expect(wrong.stdout + wrong.stderr, "what hr-mock printed").not.toContain(PASSWORD);
    }, 90_000);
  });
}
