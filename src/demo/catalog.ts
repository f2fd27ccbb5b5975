/** The vocabulary of the demo account: fictional companies, people and conversations. */

import * as vocabulary from '../seed/vocabulary.ts';

export const ACCOUNT_NAME = 'Northwind Demo';
export const TEAM_DOMAIN = 'northwind-demo.example';

export const TEAM: { name: string; role: 'owner' | 'admin' | 'member'; support: boolean; active: boolean; sales: boolean }[] = [
  { name: 'Olivia Park', role: 'owner', support: true, active: true, sales: true },
  { name: 'Marcus Reed', role: 'admin', support: true, active: true, sales: true },
  { name: 'Priya Nair', role: 'member', support: false, active: true, sales: true },
  { name: 'Tom Becker', role: 'member', support: false, active: true, sales: true },
  { name: 'Lena Ortiz', role: 'member', support: true, active: true, sales: false },
  { name: 'Sam Wu', role: 'member', support: true, active: false, sales: true },
];

export const ORGS = [
  'Acme Logistics',
  'Globex Retail',
  'Initech Software',
  'Umbrella Health',
  'Stark Manufacturing',
  'Wayne Hospitality',
  'Hooli Media',
  'Soylent Foods',
  'Cyberdyne Robotics',
  'Tyrell Biotech',
  'Wonka Confectionery',
  'Vandelay Imports',
];

// One vocabulary (seed/vocabulary.ts): where the seed's lists grew longer (accented names for search, more
// products and topics for scale), the demo keeps drawing from their first entries, its own lists of before.
export const FIRST_NAMES = vocabulary.FIRST_NAMES.slice(0, 16);
export const LAST_NAMES = vocabulary.LAST_NAMES.slice(0, 14);
export const TITLES = vocabulary.JOB_TITLES;

export const AUDIENCES = ['Newsletter', 'Product updates', 'Webinar invitees', 'Beta programme'];

export const DEAL_PRODUCTS = vocabulary.PRODUCTS.slice(0, 8);
export const LOST_REASONS = vocabulary.LOST_REASONS;
export const ACTIVITY_MESSAGES = vocabulary.MESSAGES;
export const TICKET_TOPICS = vocabulary.TICKET_TOPICS.slice(0, 8);
export const LOG_NOTES = vocabulary.LOG_NOTES;
export const CHANNELS = vocabulary.CHANNELS;
