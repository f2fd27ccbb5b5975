import type { Scenario } from '../lib/types.ts';
import * as dealsList from './deals-list.ts';
import * as dealActivities from './deal-activities.ts';
import * as analytics from './analytics.ts';
import * as webhooks from './webhooks.ts';
import * as webhooksMixed from './webhooks-mixed.ts';
import * as scale from './scale.ts';
import * as soak from './soak.ts';
import * as faults from './faults.ts';
import * as dealGet from './deal-get.ts';
import * as consoleLoad from './console.ts';
import * as mcpTools from './mcp-tools.ts';
import * as consolePages from './console-pages.ts';

/** Every scenario, in the order `npm run bench` runs them. Add new ones here. */
export const scenarios: Scenario[] = [
  dealsList,
  dealGet,
  dealActivities,
  analytics,
  webhooks,
  webhooksMixed,
  scale,
  soak,
  faults,
  consoleLoad,
  mcpTools,
  consolePages,
];
