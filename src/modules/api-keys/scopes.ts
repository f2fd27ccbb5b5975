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

/** The scopes that would satisfy `required`, for the 403 body's `required_scopes`. */
export function satisfyingScopes(required: Scope): Scope[] {
  if (required === '*') return ['*'];
  return required.endsWith(':read') ? [required, 'read', '*'] : [required, '*'];
}

/** Parses the stored JSON scope list; null (legacy) and ["*"] both mean full access. */
export function parseStoredScopes(stored: string | null): ReadonlySet<string> | null {
  if (stored === null) return null;
  const list = JSON.parse(stored) as string[];
  return list.includes('*') ? null : new Set(list);
}
