const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** A timestamp for people: local date and time; "—" for none. */
export function formatDateTime(value: string | null | undefined): string {
  return value ? dateTime.format(new Date(value)) : '—';
}

/** "3 minutes ago", "in 2 hours": for times near now. */
export function formatRelative(value: string | null | undefined, now = Date.now()): string {
  if (!value) return '—';
  const seconds = Math.round((new Date(value).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return relative.format(seconds, 'second');
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return relative.format(Math.round(seconds / 3600), 'hour');
  return relative.format(Math.round(seconds / 86400), 'day');
}

/** A contact for people: its name, else its e-mail, else its number. */
export function contactName(c: { id: number; name: string | null; email: string | null }): string {
  return c.name ?? c.email ?? `Contact ${c.id}`;
}
