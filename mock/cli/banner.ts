// What `hr-mock serve` prints once it listens: where the API and docs are, the demo keys with their
// organisation and permissions, and a request to paste. Keys from a keys file are the user's own
// and may be real secrets: they are shown by label, masked.
import type { PipelineSettings } from "../app/options.js";
import { RATE_LIMIT_WINDOW_MS } from "../kernel/limits.js";
import { mockLimits } from "../../generated/control-facts.js";
import type { MockKeyInfo, RunningMock } from "../app/start-mock.js";

/** What the banner shows of the settings: the request path's. */
export type BannerSettings = Omit<PipelineSettings, "today">;

/**
 * `readyMs` is the time the banner reports: by default startMock's own, while the CLI passes the
 * time since its process started (module loading included), which is what a user waits for.
 */
export function formatBanner(mock: RunningMock, settings: BannerSettings, readyMs = mock.startupMs): string {
  const extras = [
    `seed ${settings.seed}`,
    `scale ${settings.scale}`,
    settings.rateLimit === "off" ? "no rate limit" : `rate limit ${settings.rateLimit} per key per ${RATE_LIMIT_WINDOW_MS / 1000} s`,
    settings.failureStatus === 200 ? "failures answered with HTTP 200" : undefined,
    settings.latencyMs > 0 ? `latency ${settings.latencyMs} ms` : undefined,
    settings.failRate > 0 ? `fail rate ${settings.failRate}` : undefined,
    settings.journalSize === 0 ? "journal off" : settings.journalSize !== mockLimits.journalPerWorld ? `journal of ${settings.journalSize} requests per world` : undefined,
    settings.journalSize > 0 && settings.journalMemoryMb !== mockLimits.journalMemoryMb ? `journals share ${settings.journalMemoryMb} MB` : undefined,
  ].filter(Boolean);
  const keyWidth = Math.max(...mock.keys.map((k) => shownKey(k).length));
  const orgNames = new Map(mock.keys.map((k) => [k.organisation, k.organizationName]));
  const lines = [
    `hr-mock: HR service mock ready in ${(readyMs / 1000).toFixed(2)} s (${extras.join(", ")})`,
    `  API   ${mock.url}`,
    mock.docsBuilt ? `  Docs  ${mock.docsUrl}` : `  Docs  not built here: npm run docs builds them, then ${mock.docsUrl}`,
    `  Organisations: ${[...orgNames].map(([n, name]) => `${n} ${name}`).join("; ")}`,
    "  API keys (send Authorization: Bearer <key>):",
    ...mock.keys.map(
      (k) =>
        `    ${shownKey(k).padEnd(keyWidth)}  org ${k.organisation}  ${k.permissions.length > 0 ? k.permissions.join(", ") : "(no permissions)"}`,
    ),
    `  Try:  curl -H "Authorization: Bearer ${mock.keys.find((k) => k.demo && k.permissions.length >= 2)?.key ?? "<key>"}" "${mock.url}/v1/leaverequest/list?PageSize=2"`,
    "  Ctrl-C stops.",
  ];
  return `${lines.join("\n")}\n`;
}

function shownKey(key: MockKeyInfo): string {
  return key.demo ? key.key : `<key from file: ${key.label}>`;
}
