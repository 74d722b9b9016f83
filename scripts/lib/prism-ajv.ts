// Prism's Ajv set-up, as the Node bundle builds it (prism-http 5.12.0's validator/validators/utils.js,
// whose version lazy-require.ts checks; the build fails if a replaced text is not found there, so a
// new version is read again):
// - Each draft's pair of instances is made the first time a schema of that draft is validated.
//   Prism made six when it loaded (draft-07, 2019-09 and 2020-12, with and without type coercion,
//   formats added to each), the largest part of loading Prism; it picks them by a schema's
//   `$schema`, and the mock's documents give it draft-07 schemas only, so four were made for nothing.
// - No schema is checked against its draft's meta-schema when it is compiled (validateSchema):
//   compiling the meta-schema was most of the first request's time. Prism's schemas are the mock's
//   own documents', each valid against its meta-schema (test/spec/prism-schemas.test.ts), so the
//   check never refused one and validation is the same without it.
import { readFileSync } from "node:fs";
import type { Plugin } from "esbuild";

const FILE = /[\\/]node_modules[\\/]@stoplight[\\/]prism-http[\\/]dist[\\/]validator[\\/]validators[\\/]utils\.js$/;

const REPLACED: [string, string][] = [
  ["    strict: false,\n", "    strict: false,\n    validateSchema: false,\n"],
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

export const prismAjv: Plugin = {
  name: "prism-ajv",
  setup(build) {
    build.onLoad({ filter: FILE }, (args) => {
      let contents = readFileSync(args.path, "utf8");
      for (const [was, now] of REPLACED) {
        if (!contents.includes(was)) throw new Error(`prism-ajv: ${args.path} no longer holds ${JSON.stringify(was.split("\n")[0])}: read it again`);
        contents = contents.replace(was, now);
      }
      return { contents, loader: "js" };
    });
  },
};
