import { parseDateBound } from '../../lib/dates.js';
const DECIMAL = /^(\d{1,13})(?:\.(\d{1,2}))?$/;
/**
 * A money amount (decimal string or JSON number, at most two decimals, >= 0, below 10^13) →
 * integer cents; a string reason when it is not acceptable. Numbers go through their shortest
 * decimal text, so 0.1 + 0.2 (0.30000000000000004) is refused rather than silently rounded.
 */
export function parseMoney(input) {
    if (typeof input === 'number' && !Number.isFinite(input))
        return 'invalid_format';
    const text = typeof input === 'number' ? String(input) : input;
    if (/^-/.test(text.trim()))
        return 'too_small';
    const m = DECIMAL.exec(text);
    if (!m)
        return /^\d{14,}(\.\d+)?$/.test(text) || /e\+/i.test(text) ? 'too_large' : 'invalid_format';
    return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
export function renderMoney(cents) {
    if (cents === null || cents === undefined)
        return null;
    const c = Number(cents);
    return `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
}
/** A single point in time: a date-time (UTC when no offset) or a bare date (its first millisecond). */
export function parseInstant(text) {
    return parseDateBound(text, 'start');
}
export { metadataProblem } from '../../lib/metadata.js';
