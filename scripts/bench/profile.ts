// npm run bench -- --profile: a CPU profile of the mock under the mixed uncached load (mixed.ts),
// the mock run from its sources through tsx so that every frame names a source file and function.
// The profiler starts after the warm-up and stops after the measured run (profile-probe.mjs, inside
// the mock), so the profile holds the load and not the start-up. Writes the .cpuprofile (Chrome
// DevTools or VS Code open it) and prints where the time goes (scripts/lib/cpu-profile-summary.ts).
import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { formatSummary, summarise, type CpuProfile } from "../lib/cpu-profile-summary.js";
import { measure } from "./load.js";
import { mixedPaths } from "./mixed.js";
import { startMockServer, type Probe } from "./servers.js";

export interface ProfileOptions {
  root: string;
  probe: Probe;
  seconds: number;
  warmup: number;
  connections: number;
  /** Where the .cpuprofile goes. */
  file: string;
  log: (line: string) => void;
}

export async function profileMixed(options: ProfileOptions): Promise<string[]> {
  const { root, probe, log, file } = options;
  log("starting the mock from its sources (tsx), with the profiler's probe…");
  const server = await startMockServer(root, probe, [], undefined, "source", "profile");
  try {
    const paths = await mixedPaths({ url: server.url, headers: probe.headers, atLeast: 4000 });
    log(`mixed uncached load: ${paths.length} distinct URLs, ${options.connections} connections, ${options.warmup} s warm-up, then ${options.seconds} s profiled…`);
    const load = await measure(
      { url: server.url, headers: probe.headers, connections: options.connections, warmupSeconds: options.warmup, seconds: options.seconds, idReplacement: true, paths, serverCpuMs: server.cpuMs },
      async () => void (await server.ask!({ profile: "start" })),
    );
    await mkdir(dirname(file), { recursive: true });
    await server.ask!({ profile: "stop", file });
    if (load.bad > 0) log(`warning: ${load.bad} answers were not 2xx (or failed)`);
    const summary = summarise(JSON.parse(await readFile(file, "utf8")) as CpuProfile, root);
    return [
      `mixed uncached, from the sources under the profiler: ${Math.round(load.requestsPerSecond).toLocaleString("en")} req/s, ${load.serverCpuUsPerRequest.toFixed(0)} µs of CPU a request (the sampling costs some)`,
      `profile written to ${file} (open it in Chrome DevTools' Performance panel or VS Code)`,
      "",
      ...formatSummary(summary, load.serverCpuUsPerRequest),
    ];
  } finally {
    await server.stop();
  }
}
