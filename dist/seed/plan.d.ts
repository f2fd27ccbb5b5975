/** How many of each record a seed of `deals` deals makes: the proportions of a real sales floor. */
export interface SeedPlan {
    deals: number;
    orgs: number;
    contacts: number;
    users: number;
    tickets: number;
}
/** Per 1,000 deals: 10 orgs, 200 contacts, 2 team users (at least 3), 300 tickets; activities (3 per deal) and logs (2.5 per ticket) follow. */
export declare function planFor(deals: number): SeedPlan;
/** The largest seed accepted: beyond it the run takes hours and the database far more disk than a trial needs. */
export declare const MAX_SEED_DEALS = 10000000;
