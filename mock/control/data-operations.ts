// The control API's data operation (GET /_mock/data, mock/control/openapi.yaml): the caller's
// dataset as a data file, for hr-mock export --url. The file holds every organisation of the
// dataset, since the format's organisations are the dataset's.
import type { Dataset } from "../data/dataset.js";
import { datasetToDataFile } from "../data/export.js";
import type { OperationTable } from "../server/operations.js";

export function dataOperations(datasetOf: () => Dataset): OperationTable {
  return {
    exportData: () => ({ ok: true, data: datasetToDataFile(datasetOf()) }),
  };
}
