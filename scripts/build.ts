// `npm run build`: compiles src/ into dist/ with TypeScript's incremental build (tsconfig.build.json),
// so that a rebuild of unchanged sources (the package test's, after `npm ci` built it) checks
// instead of compiling. The build info only says what was compiled, not that its output is still
// there: when any source has no output in dist/ (an emptied or partly deleted dist/), it is dropped
// and the build is a full one.
import { execFileSync } from 'node:child_process';
import { existsSync, globSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const BUILD_INFO = join(ROOT, 'dist', 'tsbuildinfo.json');

const missing = globSync('src/**/*.ts', { cwd: ROOT, exclude: (f) => String(f).endsWith('.d.ts') }).some((source) => {
  const out = source.replace(/^src/, 'dist').replace(/\.ts$/, '');
  return !existsSync(join(ROOT, `${out}.js`)) || !existsSync(join(ROOT, `${out}.d.ts`));
});
if (missing) rmSync(BUILD_INFO, { force: true });
execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
