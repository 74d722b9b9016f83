// The container commands the guides give ("In containers and on Kubernetes"), checked against what
// they name: a build's secrets and arguments are the Containerfile's, a run's variables are those
// hr-mock serve reads, the files compose and kubectl are given exist, the Secret is the one the
// Deployment reads, and the containers.conf written is the one the tests run Podman with.
import fs from "node:fs";
import path from "node:path";
import { SERVE_FLAGS } from "../../mock/cli/commands/serve.js";
import { envName } from "../../mock/cli/flag-env.js";
import { REDIS_PASSWORD_VARIABLE } from "../../mock/cli/redis-password.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { CONTAINERS_CONF_TEXT } from "./container-image.js";
import { deploymentContainer } from "./deployment-manifest.js";

const containerfile = () => fs.readFileSync(path.join(repoRoot, "Containerfile"), "utf8");
const exists = (file: string) => fs.existsSync(path.join(repoRoot, file));

/** Problems of `argv` (a command's words) when it is a container command; undefined when it is none. */
export function containerCommandProblems(argv: string[]): string[] | undefined {
  const [tool, verb] = argv;
  const command = argv.join(" ");
  if ((tool === "docker" || tool === "podman") && verb === "build") {
    const problems: string[] = [];
    const secrets = new Set([...containerfile().matchAll(/--mount=type=secret,id=(\w+)/g)].map((m) => m[1]));
    const args = new Set([...containerfile().matchAll(/^ARG (\w+)/gm)].map((m) => m[1]));
    argv.forEach((word, i) => {
      const value = argv[i + 1] ?? "";
      if (word === "--secret" && !secrets.has(/^id=(\w+)/.exec(value)?.[1] ?? "")) problems.push(`${command}: the Containerfile mounts no secret ${value}`);
      if (word === "--build-arg" && !args.has(value.split("=")[0])) problems.push(`${command}: the Containerfile has no ARG ${value.split("=")[0]}`);
    });
    if (tool === "podman" && !/--format docker/.test(command)) problems.push(`${command}: without --format docker Podman drops the HEALTHCHECK`);
    // Podman finds a Containerfile by itself; Docker looks for a Dockerfile only.
    if (tool === "docker" && !/-f Containerfile/.test(command)) problems.push(`${command}: docker build reads a Dockerfile unless told -f Containerfile`);
    if (argv.at(-1) !== ".") problems.push(`${command}: builds from the repository's root (.)`);
    return problems;
  }
  if ((tool === "docker" || tool === "podman") && verb === "run") {
    const known = new Set([...Object.keys(SERVE_FLAGS).map(envName), REDIS_PASSWORD_VARIABLE]);
    return argv.flatMap((word, i) => (word === "-e" && !known.has(argv[i + 1].split("=")[0]) ? [`${command}: hr-mock serve reads no variable ${argv[i + 1].split("=")[0]}`] : []));
  }
  if (tool === "podman-compose" || (tool === "docker" && verb === "compose")) {
    const file = argv[argv.indexOf("-f") + 1];
    return argv.includes("-f") && exists(file) ? [] : [`${command}: no compose file ${file ?? "(give -f)"}`];
  }
  if (tool === "kubectl") {
    if (verb === "apply") return exists(argv[argv.indexOf("-f") + 1]) ? [] : [`${command}: no such folder`];
    if (verb === "create" && argv[2] === "secret") {
      const wanted = deploymentContainer().env.find((v) => v.secret)?.secret;
      const key = /^--from-literal=([^=]+)=/.exec(argv.find((w) => w.startsWith("--from-literal=")) ?? "")?.[1];
      return wanted && argv[4] === wanted.name && key === wanted.key ? [] : [`${command}: the Deployment reads the Secret ${wanted?.name} (key ${wanted?.key})`];
    }
  }
  if (tool === "printf" && argv.at(-2) === ">" && argv.at(-1)?.endsWith("containers.conf")) {
    return argv[1].replace(/\\n/g, "\n") === CONTAINERS_CONF_TEXT ? [] : [`${command}: not the containers.conf the tests run Podman with`];
  }
  return undefined;
}
