#!/usr/bin/env node
// The CLI entry point. npm puts the project's pinned Node.js (24 LTS) first on PATH,
// so `npx custops` and the npm scripts run the TypeScript sources with native type stripping.
import { main } from '../src/cli/main.ts';

process.exitCode = await main(process.argv.slice(2));
