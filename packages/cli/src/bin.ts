#!/usr/bin/env node
import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13
import { createProgram } from './program.js';

await createProgram().parseAsync(process.argv);
