// Start datasets shared by the mocks of one process (a test suite starts dozens): generating one is
// the slowest part of a start, and every world forks it (copy-on-write.ts), never changing it. A
// dataset from a data file is built each time: building it is where the file's problems are found.
import { createDataset, type CreateDatasetOptions, type Dataset } from "./dataset.js";
import { normalizeToday } from "./dates.js";

const KEPT = 8;
const kept = new Map<string, Dataset>();

/** createDataset's dataset for these options, made once per process while it is among the last KEPT asked for. */
export function sharedStartDataset(options: CreateDatasetOptions): Dataset {
  const { seed = 1, scale = 1, today, data } = options;
  if (data) return createDataset(options);
  const key = JSON.stringify([seed, scale, normalizeToday(today)]);
  let dataset = kept.get(key);
  if (!dataset) {
    dataset = createDataset(options);
    if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
    kept.set(key, dataset);
  }
  return dataset;
}
