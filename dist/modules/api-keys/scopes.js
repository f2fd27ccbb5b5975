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
];
export function isScope(value) {
    return SCOPES.includes(value);
}
/**
 * Whether a key's scopes grant `required`. `*` grants everything; `read` grants every `…:read`
 * scope; anything else must be held exactly. Routes that need `*` (marketing audience writes,
 * extensions) are granted only by `*`. A null scope set is a full-access (legacy) key.
 */
export function grants(held, required) {
    if (held === null || held.has('*'))
        return true;
    if (required === '*')
        return false;
    if (held.has(required))
        return true;
    return required.endsWith(':read') && held.has('read');
}
export function grantsAny(held, required) {
    return typeof required === 'string' ? grants(held, required) : required.some((s) => grants(held, s));
}
/** The scopes that would satisfy `required`, for the 403 body's `required_scopes`. */
export function satisfyingScopes(required) {
    if (typeof required !== 'string')
        return [...new Set(required.flatMap((s) => satisfyingScopes(s)))];
    if (required === '*')
        return ['*'];
    return required.endsWith(':read') ? [required, 'read', '*'] : [required, '*'];
}
/** How the OpenAPI description states a requirement. */
export function describeRequirement(required) {
    const list = satisfyingScopes(required).map((s) => `\`${s}\``);
    return list.length === 1 ? `Required scope: ${list[0]}.` : `Required scope: any of ${list.join(', ')}.`;
}
/** Parses the stored JSON scope list; null (legacy) and ["*"] both mean full access. */
export function parseStoredScopes(stored) {
    if (stored === null)
        return null;
    const list = JSON.parse(stored);
    return list.includes('*') ? null : new Set(list);
}
