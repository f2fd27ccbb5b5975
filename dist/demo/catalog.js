/** The vocabulary of the demo account: fictional companies, people and conversations. */
export const ACCOUNT_NAME = 'Northwind Demo';
export const TEAM_DOMAIN = 'northwind-demo.example';
export const TEAM = [
    { name: 'Olivia Park', role: 'owner', support: true, active: true, sales: true },
    { name: 'Marcus Reed', role: 'admin', support: true, active: true, sales: true },
    { name: 'Priya Nair', role: 'member', support: false, active: true, sales: true },
    { name: 'Tom Becker', role: 'member', support: false, active: true, sales: true },
    { name: 'Lena Ortiz', role: 'member', support: true, active: true, sales: false },
    { name: 'Sam Wu', role: 'member', support: true, active: false, sales: true },
];
export const ORGS = [
    'Acme Logistics', 'Globex Retail', 'Initech Software', 'Umbrella Health', 'Stark Manufacturing', 'Wayne Hospitality',
    'Hooli Media', 'Soylent Foods', 'Cyberdyne Robotics', 'Tyrell Biotech', 'Wonka Confectionery', 'Vandelay Imports',
];
export const FIRST_NAMES = ['Ada', 'Ben', 'Chloe', 'Diego', 'Elif', 'Farah', 'Gus', 'Hana', 'Ivan', 'Jade', 'Kofi', 'Lucía', 'Mei', 'Noah', 'Oren', 'Zoë'];
export const LAST_NAMES = ['Adams', 'Brandt', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'García', 'Hughes', 'Ito', 'Jensen', 'Kowalski', 'Larsen', 'Moreau', 'Novak'];
export const TITLES = ['CEO', 'CTO', 'Head of Operations', 'Procurement Manager', 'IT Director', 'Office Manager', 'VP Finance', null];
export const AUDIENCES = ['Newsletter', 'Product updates', 'Webinar invitees', 'Beta programme'];
export const DEAL_PRODUCTS = ['Annual plan', 'Fleet rollout', 'Pilot', 'Enterprise upgrade', 'Support add-on', 'Onboarding package', 'Renewal', 'API tier'];
export const LOST_REASONS = [
    { code: 'price', label: 'Too expensive' },
    { code: 'competitor', label: 'Chose a competitor' },
    { code: 'timing', label: 'Bad timing' },
    { code: 'no_budget', label: 'No budget this year' },
    { code: 'no_response', label: 'Went silent' },
];
export const ACTIVITY_MESSAGES = {
    note: ['Decision maker is the CFO.', 'Needs SSO before signing.', 'Budget approved for Q1.', 'Asked for a case study in their sector.'],
    email: ['Sent the proposal PDF.', 'Followed up on pricing questions.', 'Shared the security questionnaire.', 'Sent contract redlines.'],
    call: ['Discovery call: 3 sites, 40 seats.', 'Pricing call with procurement.', 'Left a voicemail.', 'Call about rollout timeline.'],
    meeting: ['On-site demo with the ops team.', 'Kick-off meeting.', 'Quarterly business review.', 'Technical deep-dive with IT.'],
};
export const TICKET_TOPICS = [
    { title: 'Cannot export invoices', details: 'The CSV export of invoices times out for last month.' },
    { title: 'SSO login loop', details: 'Users are redirected back to the login page after SAML sign-in.' },
    { title: 'Webhook deliveries failing', details: 'Our endpoint receives no events since yesterday.' },
    { title: 'Add a second admin', details: 'Please give admin rights to our new office manager.' },
    { title: 'Wrong VAT on invoice', details: 'The VAT rate on the latest invoice is 19% instead of 20%.' },
    { title: 'Mobile app crashes on start', details: 'The Android app closes right after the splash screen.' },
    { title: 'API rate limit questions', details: 'We need more than 60 requests per minute for a nightly sync.' },
    { title: 'Data import stuck', details: 'The contact import has been at 80% for two hours.' },
];
export const LOG_NOTES = [
    'Asked the customer for a screenshot.', 'Reproduced the issue on staging.', 'Escalated to engineering.',
    'Customer confirmed the workaround helps.', 'Shared the knowledge-base article.', 'Deployed a fix; waiting for confirmation.',
    'Customer replied with more details.', 'Scheduled a screen-share.',
];
export const CHANNELS = ['email', 'chat', 'phone', 'api'];
