// Start datasets shared by the mocks of one process (a test suite starts dozens, a page's handlers
// may be made again per test): generating one is the slowest part of a start, and a start dataset is
// never changed (every world forks it, copy on write: copy-on-write.ts), so mocks made from the
// same seed, scale and today share one. The last few are kept; a new key evicts the oldest. A dataset
// from a data file is built each time: building it is also where the file's problems are found.
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
