import type pg from 'pg';

type Stream = { _write: (...a: unknown[]) => unknown; _writev?: (...a: unknown[]) => unknown };

/**
 * Counts the socket writes of every connection `pool` hands out (each connection's stream is
 * wrapped once, when first acquired): what the PostgreSQL round-trip tests measure. Returns the
 * count so far.
 */
export function countSocketWrites(pool: pg.Pool): () => number {
  let writes = 0;
  const counted = new WeakSet<object>();
  pool.on('acquire', (client: pg.Client) => {
    const stream = (client as unknown as { connection: { stream: Stream } }).connection.stream;
    if (counted.has(stream)) return;
    counted.add(stream);
    const write = stream._write;
    const writev = stream._writev;
    stream._write = function (...a: unknown[]) {
      writes++;
      return write.apply(this, a);
    };
    if (writev) {
      stream._writev = function (...a: unknown[]) {
        writes++;
        return writev.apply(this, a);
      };
    }
  });
  return () => writes;
}
