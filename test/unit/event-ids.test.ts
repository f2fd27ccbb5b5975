import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newEventId } from '../../src/modules/events/outbox.ts';

test('event ids: evt_ and 16 random bytes in base64url, never repeated across refills of the random pool', () => {
  const ids = Array.from({ length: 3 * 256 + 7 }, () => newEventId());
  for (const id of ids) {
    assert.match(id, /^evt_[A-Za-z0-9_-]{22}$/);
    assert.equal(Buffer.from(id.slice(4), 'base64url').length, 16);
  }
  assert.equal(new Set(ids).size, ids.length);
  // Every bit position takes both values across the ids: the bytes are not a constant or a counter's high bits.
  const bytes = ids.map((id) => Buffer.from(id.slice(4), 'base64url'));
  for (let bit = 0; bit < 128; bit++) {
    const ones = bytes.filter((b) => (b[bit >> 3] >> (bit & 7)) & 1).length;
    assert.ok(ones > ids.length / 4 && ones < (3 * ids.length) / 4, `bit ${bit} is set in ${ones} of ${ids.length} ids`);
  }
});
