/** The vocabulary of the demo account: fictional companies, people and conversations. */
export declare const ACCOUNT_NAME = "Northwind Demo";
export declare const TEAM_DOMAIN = "northwind-demo.example";
export declare const TEAM: {
    name: string;
    role: 'owner' | 'admin' | 'member';
    support: boolean;
    active: boolean;
    sales: boolean;
}[];
export declare const ORGS: string[];
export declare const FIRST_NAMES: string[];
export declare const LAST_NAMES: string[];
export declare const TITLES: (string | null)[];
export declare const AUDIENCES: string[];
export declare const DEAL_PRODUCTS: string[];
export declare const LOST_REASONS: {
    code: string;
    label: string;
}[];
export declare const ACTIVITY_MESSAGES: {
    readonly note: readonly ['Decision maker is the CFO.', 'Needs SSO before signing.', 'Budget approved for Q1.', 'Asked for a case study in their sector.'];
    readonly email: readonly ['Sent the proposal PDF.', 'Followed up on pricing questions.', 'Shared the security questionnaire.', 'Sent contract redlines.'];
    readonly call: readonly ['Discovery call: 3 sites, 40 seats.', 'Pricing call with procurement.', 'Left a voicemail.', 'Call about rollout timeline.'];
    readonly meeting: readonly ['On-site demo with the ops team.', 'Kick-off meeting.', 'Quarterly business review.', 'Technical deep-dive with IT.'];
};
export declare const TICKET_TOPICS: {
    title: string;
    details: string;
}[];
export declare const LOG_NOTES: string[];
export declare const CHANNELS: string[];
