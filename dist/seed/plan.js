/** Per 1,000 deals: 10 orgs, 200 contacts, 2 team users (at least 3), 300 tickets; activities (3 per deal) and logs (2.5 per ticket) follow. */
export function planFor(deals) {
    return {
        deals,
        orgs: Math.max(1, Math.round(deals / 100)),
        contacts: Math.max(1, Math.round(deals / 5)),
        users: Math.max(3, Math.round(deals / 500)),
        tickets: Math.round((deals * 3) / 10),
    };
}
/** The largest seed accepted: beyond it the run takes hours and the database far more disk than a trial needs. */
export const MAX_SEED_DEALS = 10_000_000;
