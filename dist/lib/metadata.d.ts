/**
 * Caller metadata (`metadata_json`) is stored as text and read back on every list: one bound for
 * every resource that takes it.
 */
export declare const MAX_METADATA_BYTES: number;
export declare const MAX_METADATA_DEPTH = 16;
/** Whether nesting goes deeper than `limit`; iterative and stops early, so a hostile body cannot blow the stack. */
export declare function deeperThan(value: unknown, limit: number): boolean;
/**
 * Where a body first nests deeper than `limit`: the top-level field holding it (`body` when the
 * body itself is the culprit), or null. Iterative, like deeperThan.
 */
export declare function tooDeepField(body: unknown, limit: number): string | null;
/** The reason metadata is refused (`too_deep`, `too_large`), or null when it is fine. */
export declare function metadataProblem(value: object): 'too_deep' | 'too_large' | null;
