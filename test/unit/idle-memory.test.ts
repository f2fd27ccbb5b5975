import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { releaseMemoryWhenIdle } from '../../src/lib/idle-memory.ts';
import { until } from '../helpers/until.ts';

// The rules of src/lib/idle-memory.ts in this process, at 100 ms intervals: the system test
// (test/system/idle-memory.test.ts) runs them in `custops serve`.

const EVERY_MS = 100;

/** Keeps the event loop busy for most of an interval without allocating. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('releasing the heap when quiet', () => {
  test('0 turns it off', () => {
    assert.equal(releaseMemoryWhenIdle({ everyMs: 0 }), null);
  });

  test('work that grew the heap by less than 8 MiB releases nothing; work that grew it more releases once', async () => {
    const idle = releaseMemoryWhenIdle({ everyMs: EVERY_MS });
    assert.ok(idle);
    try {
      // Start-up counts as work: the first quiet interval releases.
      await until('the first release', () => idle.releases === 1);
      const afterFirst = idle.last!.after;

      // Busy intervals that allocate next to nothing, then quiet ones: no release.
      for (let i = 0; i < 3; i++) {
        spin(EVERY_MS * 0.8);
        await sleep(EVERY_MS * 0.2);
      }
      await sleep(EVERY_MS * 5);
      assert.equal(idle.releases, 1, 'the heap did not grow by 8 MiB');

      // Busy intervals that keep about 40 MB alive, then let it go: the next quiet interval releases.
      let kept: { i: number; s: string }[][] = [];
      for (let i = 0; i < 3; i++) {
        kept.push(Array.from({ length: 150_000 }, (_, j) => ({ i: j, s: `row ${i} ${j}` })));
        spin(EVERY_MS * 0.8);
        await sleep(EVERY_MS * 0.2);
      }
      assert.ok(kept.length === 3);
      kept = [];
      await until('the release after the growth', () => idle.releases === 2);
      const second = idle.last!;
      assert.ok(second.before - afterFirst >= 8 * 1024 * 1024, `the heap had grown: ${JSON.stringify({ afterFirst, ...second })}`);
      assert.ok(second.after < second.before, `the collection handed heap back: ${JSON.stringify(second)}`);

      // Quiet from then on: no more releases.
      await sleep(EVERY_MS * 5);
      assert.equal(idle.releases, 2);
    } finally {
      idle.stop();
    }
  });
});
