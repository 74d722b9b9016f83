#!/usr/bin/env node
// hr-mock's entry (the bin runs this file, built or from the sources): the command line itself is
// mock/cli/ (main.ts: the commands; command.ts: their scaffold). Only the status is set here.
import { run } from "./cli/main.js";

// A command that sets its own status (diff) keeps it; a failure's status replaces it.
void run(process.argv.slice(2)).then((status) => {
  if (status !== 0) process.exitCode = status;
});
