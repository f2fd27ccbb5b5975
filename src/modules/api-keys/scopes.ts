/** Every scope of the specification's table. */
export const SCOPES = [
  '*',
  'read',
  'orgs:read',
  'orgs:write',
  'users:read',
  'contacts:read',
  'deals:read',
  'deals:write',
  'support:read',
  'support:write',
  'activity:read',
  'analytics:read',
  'webhooks:read',
  'webhooks:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Whether a key's scopes grant `required`. `*` grants everything; `read` grants every `…:read`
 * scope; anything else must be held exactly. Routes that need `*` (marketing audience writes,
 * extensions) are granted only by `*`. A null scope set is a full-access (legacy) key.
 */
export function grants(held: ReadonlySet<string> | null, required: Scope): boolean {
  if (held === null || held.has('*')) return true;
  if (required === '*') return false;
  if (held.has(required)) return true;
  return required.endsWith(':read') && held.has('read');
}

/** A route's requirement: one scope, or any one of several. */
export type ScopeRequirement = Scope | readonly Scope[];

export function grantsAny(held: ReadonlySet<string> | null, required: ScopeRequirement): boolean {
  return typeof required === 'string' ? grants(held, required) : required.some((s) => grants(held, s));
}

/** The scopes that would satisfy `required`, for the 403 body's `required_scopes`. */
export function satisfyingScopes(required: ScopeRequirement): Scope[] {
  if (typeof required !== 'string') return [...new Set(required.flatMap((s) => satisfyingScopes(s)))];
  if (required === '*') return ['*'];
  return required.endsWith(':read') ? [required, 'read', '*'] : [required, '*'];
}

/** How the OpenAPI description states a requirement. */
export function describeRequirement(required: ScopeRequirement): string {
  const list = satisfyingScopes(required).map((s) => `\`${s}\``);
  return list.length === 1 ? `Required scope: ${list[0]}.` : `Required scope: any of ${list.join(', ')}.`;
}

/** Parses the stored JSON scope list; null (legacy) and ["*"] both mean full access. */
export function parseStoredScopes(stored: string | null): ReadonlySet<string> | null {
  if (stored === null) return null;
  const list = JSON.parse(stored) as string[];
  return list.includes('*') ? null : new Set(list);
}
