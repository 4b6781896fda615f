#!/usr/bin/env node
// Entry point of the `streamroute` command: wiring only.
import { runCli } from './program.js';
import { processOutput } from './report.js';

process.exitCode = await runCli(process.argv.slice(2), processOutput);
