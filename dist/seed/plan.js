/**
 * Per 1,000 deals: 10 orgs, 200 contacts, 300 tickets; activities (3 per deal) and logs (2.5 per
 * ticket) follow. The team grows with the square root of the deal count (a few people for a few
 * thousand deals, about 80 for 100,000, about 250 for a million): on a bigger floor each rep
 * carries more deals, and the analytics rollups, which count per user and day, stay the size a
 * real account of that size has.
 */
export function planFor(deals) {
    return {
        deals,
        orgs: Math.max(1, Math.round(deals / 100)),
        contacts: Math.max(1, Math.round(deals / 5)),
        users: 3 + Math.round(Math.sqrt(deals) / 4),
        tickets: Math.round((deals * 3) / 10),
    };
}
/** The largest seed accepted: beyond it the run takes hours and the database far more disk than a trial needs. */
export const MAX_SEED_DEALS = 10_000_000;
