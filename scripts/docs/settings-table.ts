// The guide's table of `hr-mock serve`'s settings, made from the one settings table
// (mock/app/settings.ts): the guide holds it between two markers, the docs build writes the table
// afresh there for the site, and test/guides/run-one-mock-for-many-teams.test.ts holds the
// committed copy equal to it.
import { SETTINGS, type Setting } from "../../mock/app/settings.js";
import { envName } from "../../mock/cli/flag-env.js";

export const SETTINGS_TABLE_START = "<!-- settings table: made from mock/app/settings.ts -->";
export const SETTINGS_TABLE_END = "<!-- end of settings table -->";

const cell = (text: string) => text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
/** Text outside code: a <placeholder> is no HTML tag. */
const prose = (text: string) => cell(text).replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The table in Markdown: flag, variable, startMock option, default, what it does. */
export function settingsTable(settings: Record<string, Setting> = SETTINGS): string {
  const shown = (value: unknown) => (value === undefined || (Array.isArray(value) && value.length === 0) ? "" : `\`${String(value)}\``);
  const rows = Object.entries(settings).map(([flag, s]) => `| \`--${flag}${s.arg ? ` ${cell(s.arg)}` : ""}\` | \`${envName(flag)}\` | ${s.option ? `\`${s.option}\`` : ""} | ${shown(s.default)} | ${prose(s.help)} |`);
  return ["| flag | variable | startMock option | default | what it sets |", "|---|---|---|---|---|", ...rows].join("\n");
}

/** A guide's text with its settings table, if it has one, made afresh. */
export function withSettingsTable(markdown: string): string {
  const start = markdown.indexOf(SETTINGS_TABLE_START);
  const end = markdown.indexOf(SETTINGS_TABLE_END);
  if (start < 0 || end < start) return markdown;
  return `${markdown.slice(0, start + SETTINGS_TABLE_START.length)}\n${settingsTable()}\n${markdown.slice(end)}`;
}
