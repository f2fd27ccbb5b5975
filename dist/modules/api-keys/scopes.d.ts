/** Every scope of the specification's table. */
export declare const SCOPES: readonly ['*', 'read', 'orgs:read', 'orgs:write', 'users:read', 'contacts:read', 'deals:read', 'deals:write', 'support:read', 'support:write', 'activity:read', 'analytics:read', 'webhooks:read', 'webhooks:write'];
export type Scope = (typeof SCOPES)[number];
export declare function isScope(value: string): value is Scope;
/**
 * Whether a key's scopes grant `required`. `*` grants everything; `read` grants every `…:read`
 * scope; anything else must be held exactly. Routes that need `*` (marketing audience writes,
 * extensions) are granted only by `*`. A null scope set is a full-access (legacy) key.
 */
export declare function grants(held: ReadonlySet<string> | null, required: Scope): boolean;
/** A route's requirement: one scope, or any one of several. */
export type ScopeRequirement = Scope | readonly Scope[];
export declare function grantsAny(held: ReadonlySet<string> | null, required: ScopeRequirement): boolean;
/** The scopes that would satisfy `required`, for the 403 body's `required_scopes`. */
export declare function satisfyingScopes(required: ScopeRequirement): Scope[];
/** How the OpenAPI description states a requirement. */
export declare function describeRequirement(required: ScopeRequirement): string;
/** Parses the stored JSON scope list; null (legacy) and ["*"] both mean full access. */
export declare function parseStoredScopes(stored: string | null): ReadonlySet<string> | null;
