import { parseDateBound } from '../../lib/dates.ts';
import { validationError } from '../../lib/errors.ts';

const DECIMAL = /^(\d{1,13})(?:\.(\d{1,2}))?$/;

/**
 * A money amount (decimal string or JSON number, at most two decimals, >= 0, below 10^13) →
 * integer cents; a string reason when it is not acceptable. Numbers go through their shortest
 * decimal text, so 0.1 + 0.2 (0.30000000000000004) is refused rather than silently rounded.
 */
export function parseMoney(input: string | number): number | string {
  if (typeof input === 'number' && !Number.isFinite(input)) return 'invalid_format';
  const text = typeof input === 'number' ? String(input) : input;
  if (/^-/.test(text.trim())) return 'too_small';
  const m = DECIMAL.exec(text);
  if (!m) return /^\d{14,}(\.\d+)?$/.test(text) || /e\+/i.test(text) ? 'too_large' : 'invalid_format';
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

export function renderMoney(cents: number | null): string | null {
  if (cents === null || cents === undefined) return null;
  const c = Number(cents);
  return `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
}

/** A single point in time: a date-time (UTC when no offset) or a bare date (its first millisecond). */
export function parseInstant(text: string): number | null {
  return parseDateBound(text, 'start');
}

export interface FieldValues {
  valueCents?: number | null;
  currency?: string | null;
  nextFollowupAt?: number | null;
}

/** Body semantics the schema cannot express; all reasons at once, named by field. */
export function checkFields(input: {
  title?: string;
  value?: string | number | null;
  currency?: string | null;
  next_followup_at?: string | null;
}): FieldValues {
  const fields: Record<string, string> = {};
  const out: FieldValues = {};
  if (input.title !== undefined && input.title.trim() === '') fields.title = 'too_short';
  if (input.value !== undefined) {
    const cents = input.value === null ? null : parseMoney(input.value);
    if (typeof cents === 'string') fields.value = cents;
    else out.valueCents = cents;
  }
  if (input.currency !== undefined) out.currency = input.currency === null ? null : input.currency.toUpperCase();
  if (input.next_followup_at !== undefined) {
    const at = input.next_followup_at === null ? null : parseInstant(input.next_followup_at);
    if (at === null && input.next_followup_at !== null) fields.next_followup_at = 'invalid_date';
    else out.nextFollowupAt = at;
  }
  if (Object.keys(fields).length) throw validationError(fields);
  return out;
}

export { metadataProblem } from '../../lib/metadata.ts';
