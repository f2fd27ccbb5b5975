import type { App } from './types.ts';
/** The path of the first string (or key) holding a NUL character, or null. */
export declare function findNul(value: unknown, path: string): string | null;
/**
 * PostgreSQL text cannot hold NUL (U+0000), and no field of this API needs it: a NUL anywhere in
 * the query, path or body is 422 `invalid_character` naming the field, on both engines alike.
 * Integer parameters must be spelled as decimal digits. Runs after the authentication, signature,
 * rate-limit and scope checks (registered after them).
 */
export declare const textGuardPlugin: (app: App) => Promise<void>;
