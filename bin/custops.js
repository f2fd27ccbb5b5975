#!/usr/bin/env node
// The CLI entry point. In a checkout, npm puts the project's pinned Node.js (24 LTS) first on PATH
// and the TypeScript sources run with native type stripping; an installed package has no sources
// and runs the compiled dist/ (built by `npm run build`, and by prepack before `npm pack`).
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
const entry = existsSync(source) ? source : new URL('../dist/cli/main.js', import.meta.url);
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
