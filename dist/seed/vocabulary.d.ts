/**
 * Words the seed builds names from. Accented and non-ASCII letters are deliberate: search
 * must find "Société" by "soc" and "Zoë" by "ZOË" on both engines.
 */
export declare const ORG_FIRST: string[];
export declare const ORG_SECOND: string[];
export declare const CITIES: string[];
export declare const FIRST_NAMES: string[];
export declare const LAST_NAMES: string[];
export declare const JOB_TITLES: (string | null)[];
export declare const PRODUCTS: string[];
export declare const LOST_REASONS: {
    code: string;
    label: string;
}[];
export declare const MESSAGES: Record<'note' | 'email' | 'call' | 'meeting', string[]>;
export declare const TICKET_TOPICS: {
    title: string;
    details: string;
}[];
export declare const LOG_NOTES: string[];
export declare const CHANNELS: string[];
export declare const CURRENCIES: string[];
