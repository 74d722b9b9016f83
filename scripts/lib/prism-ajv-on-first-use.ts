// Prism's validator makes six Ajv instances when it loads (draft-07, 2019-09 and 2020-12, each with
// and without type coercion, formats added to each): the largest part of loading Prism. It picks one
// per schema by the schema's `$schema`, and the mock's documents give Prism draft-07 schemas only
// (generated/prism-operations.json), so four of the six were made for nothing. Here each draft's pair
// is made the first time a schema of that draft is validated: the same instances, made later. The
// text replaced is Prism's own (validator/validators/utils.js of prism-http 5.12.0, whose version
// lazy-require.ts checks); the build fails if it is not found, so a new version is read again.
import { readFileSync } from "node:fs";
import type { Plugin } from "esbuild";

const FILE = /[\\/]node_modules[\\/]@stoplight[\\/]prism-http[\\/]dist[\\/]validator[\\/]validators[\\/]utils\.js$/;

const REPLACED: [string, string][] = [
  [
    `const ajvInstances = {
    default: createAjvInstances(ajv_1.default),
    draft2019_09: createAjvInstances(_2019_1.default),
    draft2020_12: createAjvInstances(_2020_1.default),
};`,
    `const ajvClasses = { default: () => ajv_1.default, draft2019_09: () => _2019_1.default, draft2020_12: () => _2020_1.default };
const ajvInstances = {};`,
  ],
  ["return ajvInstances[draft][member];", "return (ajvInstances[draft] ??= createAjvInstances(ajvClasses[draft]()))[member];"],
];

export const prismAjvOnFirstUse: Plugin = {
  name: "prism-ajv-on-first-use",
  setup(build) {
    build.onLoad({ filter: FILE }, (args) => {
      let contents = readFileSync(args.path, "utf8");
      for (const [was, now] of REPLACED) {
        if (!contents.includes(was)) throw new Error(`prism-ajv-on-first-use: ${args.path} no longer holds ${JSON.stringify(was.split("\n")[0])}: read it again`);
        contents = contents.replace(was, now);
      }
      return { contents, loader: "js" };
    });
  },
};
