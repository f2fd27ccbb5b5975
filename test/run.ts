// `npm test [-- files… | --node-test-flags…]`: every test file, in lanes of test processes that each
// run a few files in one process (`node --test --test-isolation=none`), so that the app's modules
// load once per chunk of files instead of once per file (about 0.7 s of CPU a file: a third of an
// API test file's cost).
//
// Why not `node --test` alone: with process isolation each file pays the module loading; with
// `--test-isolation=none` one process runs every file one after another (no parallelism).
// `--test-shard` splits statically, so one lane can get every browser test. Here the lanes take
// chunks from one queue, heaviest kinds first, and the output of each chunk is printed whole when it
// ends (the spec reporter's blocks, never interleaved), with one summary at the end. Arguments
// starting with `--` (`--test-name-pattern=…`, `--test-timeout=…`) go to every test process.
//
// TEST_LANES sets the number of lanes (default 3: on two cores a third lane fills the time the
// others spend waiting on PostgreSQL, Chromium and child processes); TEST_TIMINGS=1 prints when
// each chunk ran, by lane, on stderr.
import { spawn, type ChildProcess } from 'node:child_process';
import { globSync } from 'node:fs';
import { constants } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const ROOT = join(import.meta.dirname, '..');

/**
 * Kinds of test file, heaviest first, and how many files of a kind share a process. A browser,
 * package, webhook, MCP or system test file runs for 5 to 50 s (Chromium, npm, child processes,
 * crash and fault scenarios), so it goes alone: files in one process run one after another, and a
 * lane holding two long ones would end last. The many short API, unit and CLI files share a process
 * and load the app's modules once. The last kind takes every file.
 */
const KINDS: { prefix: string; perChunk: number }[] = [
  { prefix: 'test/package/', perChunk: 1 },
  { prefix: 'test/browser/', perChunk: 1 },
  { prefix: 'test/webhooks/', perChunk: 1 },
  { prefix: 'test/mcp/', perChunk: 1 },
  { prefix: 'test/system/', perChunk: 1 },
  { prefix: 'test/api/', perChunk: 5 },
  { prefix: '', perChunk: 6 },
];

const SUMMARY = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)$/;

function chunksOf(files: string[]): string[][] {
  const chunks: string[][] = [];
  const left = new Set(files);
  for (const kind of KINDS) {
    const mine = [...left].filter((f) => f.startsWith(kind.prefix)).sort();
    for (const f of mine) left.delete(f);
    for (let i = 0; i < mine.length; i += kind.perChunk) chunks.push(mine.slice(i, i + kind.perChunk));
  }
  return chunks;
}

/** The test files the patterns name, relative to the repository; a pattern that names none is an error. */
function filesOf(patterns: string[]): string[] {
  const files = new Set<string>();
  for (const pattern of patterns) {
    const matched = globSync(relative(ROOT, resolve(pattern)), { cwd: ROOT });
    if (matched.length === 0) throw new Error(`no test file matches ${pattern}`);
    for (const f of matched) files.add(f.split('\\').join('/'));
  }
  return [...files];
}

const children = new Set<ChildProcess>();
let interrupted: NodeJS.Signals | null = null;

function runChunk(files: string[], flags: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      ['--import', './test/helpers/compile-cache.ts', '--test', '--test-isolation=none', '--test-reporter=spec', ...flags, ...files],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' } },
    );
    children.add(child);
    const parts: Buffer[] = [];
    child.stdout!.on('data', (b: Buffer) => parts.push(b));
    child.stderr!.on('data', (b: Buffer) => parts.push(b));
    child.on('close', (code, signal) => {
      children.delete(child);
      done({ code, signal, output: Buffer.concat(parts).toString('utf8') });
    });
  });
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const flags = args.filter((a) => a.startsWith('--'));
  const patterns = args.filter((a) => !a.startsWith('--'));
  let files: string[];
  try {
    files = filesOf(patterns.length > 0 ? patterns : ['test/**/*.test.ts']);
  } catch (err) {
    process.stderr.write(`test: ${(err as Error).message}\n`);
    return 2;
  }
  const queue = chunksOf(files);
  const lanes = Math.max(1, Number(process.env.TEST_LANES) || 3);
  const totals = new Map<string, number>();
  const failing: string[] = [];
  let failed = false;
  const started = performance.now();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // Passed on: each test process reports what it was running and ends; its output is printed below.
    process.on(signal, () => {
      interrupted = signal;
      queue.length = 0;
      for (const c of children) c.kill(signal);
    });
  }
  const timings: string[] = [];
  const lane = async (_: unknown, n: number) => {
    for (let chunk = queue.shift(); chunk; chunk = queue.shift()) {
      const from = performance.now() - started;
      const { code, signal, output } = await runChunk(chunk, flags);
      timings.push(`lane ${n + 1} ${(from / 1000).toFixed(1)}–${((performance.now() - started) / 1000).toFixed(1)} s ${chunk.join(' ')}`);
      const kept: string[] = [];
      let inFailing = false;
      let summarized = false;
      for (const line of output.split('\n')) {
        const plain = stripVTControlCharacters(line);
        const m = SUMMARY.exec(plain);
        if (m) {
          totals.set(m[1], (totals.get(m[1]) ?? 0) + Number(m[2]));
          summarized = true;
          continue;
        }
        if (plain.startsWith('✖ failing tests:')) inFailing = true;
        if (inFailing) failing.push(line);
        kept.push(line);
      }
      // A process that ends early (a crash, `process.exit` in a test) may have printed no failure and no summary.
      if (code !== 0 || !summarized) {
        failed = true;
        const why = `✖ ${chunk.join(' ')} ended ${signal ? `by ${signal}` : `with code ${code}`}${summarized ? '' : ' before its summary'}`;
        kept.push(why);
        failing.push(why);
      }
      process.stdout.write(`${kept.join('\n').trimEnd()}\n`);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  if (process.env.TEST_TIMINGS) process.stderr.write(`${timings.sort().join('\n')}\n`);
  if (failing.length > 0) process.stdout.write(`\n${failing.join('\n').trimEnd()}\n`);
  totals.set('duration_ms', performance.now() - started);
  for (const [name, value] of totals) process.stdout.write(`ℹ ${name} ${name === 'duration_ms' ? value.toFixed(0) : value}\n`);
  if (interrupted) return 128 + constants.signals[interrupted];
  return failed ? 1 : 0;
}

main().then((code) => {
  process.exitCode = code;
});
