/**
 * Caller metadata (`metadata_json`) is stored as text and read back on every list: one bound for
 * every resource that takes it.
 */
export const MAX_METADATA_BYTES = 64 * 1024;
export const MAX_METADATA_DEPTH = 16;

/** Whether nesting goes deeper than `limit`; iterative and stops early, so a hostile body cannot blow the stack. */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(v as Record<string, unknown>)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Where a body first nests deeper than `limit`: the top-level field holding it (`body` when the
 * body itself is the culprit), or null. Iterative, like deeperThan.
 */
export function tooDeepField(body: unknown, limit: number): string | null {
  if (body === null || typeof body !== 'object') return null;
  // A field nests too deeply exactly when the body does (its fields are one level down): one walk answers the common case.
  if (!deeperThan(body, limit)) return null;
  if (Array.isArray(body)) return 'body';
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (deeperThan(value, limit - 1)) return key;
  }
  return null;
}

/** The reason metadata is refused (`too_deep`, `too_large`), or null when it is fine. */
export function metadataProblem(value: object): 'too_deep' | 'too_large' | null {
  if (deeperThan(value, MAX_METADATA_DEPTH)) return 'too_deep';
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > MAX_METADATA_BYTES) return 'too_large';
  return null;
}
