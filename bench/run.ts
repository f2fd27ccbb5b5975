// `npm run bench [-- --only <scenario>] [--engine sqlite|postgres] [--duration S] [--warmup S] [--connections N] [--rate N] [--soak S]`
// Runs the scenarios one after another; each prints one JSON line of figures on stdout.
import { parseArgs } from 'node:util';
import { log } from './lib/processes.ts';
import { scenarios } from './scenarios/index.ts';
import type { BenchOptions } from './lib/types.ts';

function positive(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} must be a non-negative number`);
  return n;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      engine: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      rate: { type: 'string' },
      soak: { type: 'string' },
      list: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.list) {
    for (const s of scenarios) process.stdout.write(`${s.name}\t${s.description}\n`);
    return 0;
  }
  if (values.engine !== undefined && values.engine !== 'sqlite' && values.engine !== 'postgres') {
    process.stderr.write(`bench: --engine must be sqlite or postgres, got "${values.engine}"\n`);
    return 2;
  }
  const options: BenchOptions = {
    engine: values.engine,
    durationSeconds: positive(values.duration, 10, '--duration'),
    warmupSeconds: positive(values.warmup, 3, '--warmup'),
    connections: Math.max(1, Math.floor(positive(values.connections, 20, '--connections'))),
    rate: Math.max(1, Math.floor(positive(values.rate, 500, '--rate'))),
    soakSeconds: positive(values.soak, 60, '--soak'),
  };
  const selected = values.only ? scenarios.filter((s) => s.name === values.only) : scenarios;
  if (selected.length === 0) {
    process.stderr.write(`bench: no scenario "${values.only}" (have: ${scenarios.map((s) => s.name).join(', ')})\n`);
    return 2;
  }
  for (const scenario of selected) {
    log(`${scenario.name}: ${scenario.description}`);
    const started = Date.now();
    await scenario.run(options);
    log(`${scenario.name}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return 0;
}

main().then(
  (code) => (process.exitCode = code),
  (err) => {
    process.stderr.write(`bench: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}\n`);
    process.exitCode = 1;
  },
);
