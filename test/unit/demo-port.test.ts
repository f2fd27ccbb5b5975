import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'demo.ts');

describe('npm run demo (SQLite only, by design)', () => {
  test('--port on a busy port stops before the demo database is touched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custops-demo-port-'));
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data', 'demo.db'), 'the previous demo');
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    try {
      const child = spawn(process.execPath, [SCRIPT, '--port', String(port)], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', PORT: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (c) => (err += c));
      const code = await new Promise<number | null>((r) => child.on('exit', r));
      assert.equal(code, 1);
      assert.match(err, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is not available \\(EADDRINUSE\\)`), 'the flag wins over PORT');
      assert.equal(readFileSync(join(dir, 'data', 'demo.db'), 'utf8'), 'the previous demo', 'the demo database was not wiped');
    } finally {
      busy.close();
    }
  });
});
