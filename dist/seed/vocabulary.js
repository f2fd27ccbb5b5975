/**
 * Words the seed builds names from. Accented and non-ASCII letters are deliberate: search
 * must find "Société" by "soc" and "Zoë" by "ZOË" on both engines.
 */
export const ORG_FIRST = [
    'Acme', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Hooli', 'Soylent', 'Cyberdyne', 'Tyrell', 'Wonka', 'Vandelay',
    'Müller', 'Société', 'Café', 'Ørsted', 'Zoë', 'Łódź', 'Nørre', 'São', 'Crème', 'Brandt', 'Kowalski', 'Aurora', 'Nimbus',
    'Pioneer', 'Summit', 'Harbor', 'Granite', 'Falcon',
];
export const ORG_SECOND = [
    'Logistics', 'Retail', 'Software', 'Health', 'Manufacturing', 'Hospitality', 'Media', 'Foods', 'Robotics', 'Biotech', 'Imports',
    'Bau', 'Énergie', 'Consulting', 'Studios', 'Freight', 'Labs', 'Générale', 'Ingeniería', 'Handel',
];
export const CITIES = ['Berlin', 'Lyon', 'Porto', 'Kraków', 'Malmö', 'Zürich', 'Austin', 'Osaka', 'Québec', 'Dublin', 'Bogotá', 'Oslo', 'Leeds', 'Turin'];
export const FIRST_NAMES = ['Ada', 'Ben', 'Chloe', 'Diego', 'Elif', 'Farah', 'Gus', 'Hana', 'Ivan', 'Jade', 'Kofi', 'Lucía', 'Mei', 'Noah', 'Oren', 'Zoë',
    'Åsa', 'Björn', 'Céline', 'Dörte', 'Emeka', 'François', 'Giulia', 'Hiroshi', 'Inês', 'José'];
export const LAST_NAMES = ['Adams', 'Brandt', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'García', 'Hughes', 'Ito', 'Jensen', 'Kowalski', 'Larsen',
    'Moreau', 'Novak', 'Øberg', 'Peña', 'Quiroga', 'Rossi', 'Schäfer', 'Tanaka', 'Ünal', 'Varga', 'Weiß', 'Yilmaz'];
export const JOB_TITLES = ['CEO', 'CTO', 'Head of Operations', 'Procurement Manager', 'IT Director', 'Office Manager', 'VP Finance', null];
export const PRODUCTS = ['Annual plan', 'Fleet rollout', 'Pilot', 'Enterprise upgrade', 'Support add-on', 'Onboarding package', 'Renewal', 'API tier',
    'Data migration', 'Training day', 'Multi-site licence', 'Premium SLA'];
export const LOST_REASONS = [
    { code: 'price', label: 'Too expensive' },
    { code: 'competitor', label: 'Chose a competitor' },
    { code: 'timing', label: 'Bad timing' },
    { code: 'no_budget', label: 'No budget this year' },
    { code: 'no_response', label: 'Went silent' },
];
export const MESSAGES = {
    note: ['Decision maker is the CFO.', 'Needs SSO before signing.', 'Budget approved for next quarter.', 'Asked for a case study in their sector.'],
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
    { title: 'Réinitialiser le mot de passe', details: 'Le lien de réinitialisation a expiré.' },
    { title: 'Größere Dateien hochladen', details: 'Anhänge über 10 MB werden abgelehnt.' },
];
export const LOG_NOTES = [
    'Asked the customer for a screenshot.', 'Reproduced the issue on staging.', 'Escalated to engineering.',
    'Customer confirmed the workaround helps.', 'Shared the knowledge-base article.', 'Deployed a fix; waiting for confirmation.',
    'Customer replied with more details.', 'Scheduled a screen-share.',
];
export const CHANNELS = ['email', 'chat', 'phone', 'api'];
export const CURRENCIES = ['USD', 'EUR', 'GBP'];
