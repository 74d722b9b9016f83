// A setup file (vitest.config.ts): it runs before each test file, and its hook, registered first,
// runs after the file's own (mocks closed, children ended) to remove the folders tempDir made.
import { afterAll } from "vitest";
import { removeTempDirs } from "./temp-dirs.js";

afterAll(removeTempDirs);
