import type { Scope } from '../../lib/types';

/** Every scope with what it grants, in the order the picker shows them. */
export const SCOPE_OPTIONS: { value: Scope; label: string }[] = [
  { value: 'read', label: 'read: every …:read scope' },
  { value: 'orgs:read', label: 'orgs:read' },
  { value: 'orgs:write', label: 'orgs:write' },
  { value: 'users:read', label: 'users:read' },
  { value: 'contacts:read', label: 'contacts:read' },
  { value: 'deals:read', label: 'deals:read' },
  { value: 'deals:write', label: 'deals:write' },
  { value: 'support:read', label: 'support:read' },
  { value: 'support:write', label: 'support:write' },
  { value: 'activity:read', label: 'activity:read' },
  { value: 'analytics:read', label: 'analytics:read' },
  { value: 'webhooks:read', label: 'webhooks:read' },
  { value: 'webhooks:write', label: 'webhooks:write' },
];

export type Preset = 'full' | 'agent' | 'custom';

export const PRESETS: { value: Preset; label: string; description: string }[] = [
  { value: 'full', label: 'Full access (*)', description: 'Everything the API allows, including writes and webhook management.' },
  { value: 'agent', label: 'Read-only agent', description: 'The read scope only: for AI agents over MCP and reporting tools. It cannot change anything.' },
  { value: 'custom', label: 'Choose scopes', description: 'Pick exactly what the integration needs.' },
];

export function scopesOf(preset: Preset, custom: Scope[]): Scope[] {
  return preset === 'full' ? ['*'] : preset === 'agent' ? ['read'] : custom;
}
