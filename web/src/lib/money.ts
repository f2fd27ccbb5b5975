/**
 * A deal value as the API states it (a decimal string) with its currency. The string is shown as
 * given, with digit grouping added by hand: converting to a float could change the figure.
 */
export function formatMoney(value: string | null | undefined, currency: string | null | undefined): string {
  if (value == null) return '—';
  const [whole, cents] = value.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${grouped}${cents !== undefined ? `.${cents}` : ''}${currency ? ` ${currency}` : ''}`;
}

/** Whole days from `iso` to now (0 today). */
export function daysSince(iso: string, now = Date.now()): number {
  return Math.max(0, Math.floor((now - new Date(iso).getTime()) / 86_400_000));
}
