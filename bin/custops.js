#!/usr/bin/env -S node --max-semi-space-size=8 --heap-growing-percent=50
// The CLI entry point. The first line sets how the process holds memory (docs/operations.md, Memory);
// the npm scripts set the same:
// - V8's young generation is capped at 8 MB per semi-space (V8 would grow it to 32 MB on a large
//   machine): idle memory stays about 40 MB lower for a few per cent more scavenges.
// - A full collection runs once the old generation has grown by 50 % over what the last one kept
//   alive (V8 lets it double or more on a fast machine). Under load the garbage of requests that
//   outlived the young generation piles up until then, with the native buffers it holds, and the
//   process keeps the pages it grew to: the resident size ratcheted up with each pile.
// glibc reads MALLOC_ARENA_MAX=2 (at most two malloc arenas) only from the environment at process
// start: the npm scripts set it, and docs/operations.md asks a service's environment to. It is not
// in this line because package managers turn `env -S` lines into launchers of their own, and pnpm's
// takes the first word after -S as the program.
// In a checkout, npm puts the project's pinned Node.js (24 LTS) first on PATH
// and the TypeScript sources run with native type stripping; an installed package has no sources
// and runs the compiled dist/ (built by `npm run build`, and by prepack before `npm pack`).
import { existsSync } from 'node:fs';
import module from 'node:module';

// Node.js 22.1+ keeps compiled code (and stripped TypeScript) in a cache directory under the OS
// temporary directory, so later starts of any command skip most of the parsing; older Node.js
// has no such cache and starts as before. NODE_COMPILE_CACHE, when set, chooses the directory.
module.enableCompileCache?.();

const source = new URL('../src/cli/main.ts', import.meta.url);
const entry = existsSync(source) ? source : new URL('../dist/cli/main.js', import.meta.url);
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
