/**
 * A money amount (decimal string or JSON number, at most two decimals, >= 0, below 10^13) →
 * integer cents; a string reason when it is not acceptable. Numbers go through their shortest
 * decimal text, so 0.1 + 0.2 (0.30000000000000004) is refused rather than silently rounded.
 */
export declare function parseMoney(input: string | number): number | string;
export declare function renderMoney(cents: number | null): string | null;
/** A single point in time: a date-time (UTC when no offset) or a bare date (its first millisecond). */
export declare function parseInstant(text: string): number | null;
export { metadataProblem } from '../../lib/metadata.ts';
