// The test workers and the global setup run the mock's sources, with Prism loaded from
// node_modules, not from the bundle users run: the bundle's stand-ins for Prism's rarely read
// modules (faker 6 with every locale, the Swagger 2 and Postman readers, node-fetch, lodash/fp;
// scripts/lib/lazy-require.ts) are put in their place first, so that each process loads what a
// user's mock loads.
import { installLazyModules } from "../../scripts/lib/lazy-require.js";

installLazyModules();
