// A data file as the text hr-mock export and hr-mock proxy --record write: YAML (the default) or JSON.
import YAML from "yaml";
import type { DataFile } from "./data-file.js";

export type DataFileFormat = "yaml" | "json";

export function formatDataFile(file: DataFile, format: DataFileFormat): string {
  return format === "json" ? `${JSON.stringify(file, null, 2)}\n` : YAML.stringify(file, { lineWidth: 0 });
}
