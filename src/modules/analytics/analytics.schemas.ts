import { Type, type TProperties, type TSchema } from 'typebox';
import { Id, Nullable } from '../../http/schemas.ts';
import { PRESETS } from './analytics.period.ts';

export const AnalyticsPeriod = Type.Object(
  {
    from: Type.String({ format: 'date-time', description: 'First instant of the period (inclusive), ISO-8601 UTC.' }),
    to: Type.String({ format: 'date-time', description: 'End of the period (exclusive): the first instant after it.' }),
  },
  { $id: 'AnalyticsPeriod', title: 'AnalyticsPeriod', description: 'A half-open UTC interval [from, to).' },
);

export const AnalyticsChange = Type.Object(
  {
    absolute: Type.Number({ description: 'current − previous.' }),
    percent: Nullable(Type.Number({ description: '100 × absolute / previous, rounded to 1 decimal (half away from zero).' })),
    note: Nullable(
      Type.String({
        enum: ['zero_baseline'],
        description: '`zero_baseline` when previous is 0 and current is not (percent is then null); null otherwise. Both 0: absolute 0, percent 0, note null.',
      }),
    ),
  },
  { $id: 'AnalyticsChange', title: 'AnalyticsChange', description: 'How a numeric total moved from the previous period to this one.' },
);

export const MoneyTotal = Type.Object(
  {
    currency: Nullable(Type.String({ description: 'Currency code as stored on the deals; null for deals without one.' })),
    value: Type.String({ description: 'Sum of the deal values in this currency, decimal string with two decimals.', examples: ['1250.00'] }),
  },
  { $id: 'MoneyTotal', title: 'MoneyTotal', description: 'A sum of deal values in one currency (values in different currencies are never added together).' },
);

const ref = (id: string) => Type.Ref(id) as unknown as TSchema;
const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Rate = (description: string) => Nullable(Type.Number({ minimum: 0, maximum: 100, description }));

const rangeDescription =
  'Preset period, whole UTC calendar periods [start, end): today; this_week / last_week (ISO weeks, Monday to Monday); ' +
  'this_month, last_month, this_quarter, this_year, last_year. Default this_month. Ignored when from or to is given.';

export const AnalyticsQueryProps = {
  range: Type.Optional(Type.Enum([...PRESETS], { description: rangeDescription })),
  from: Type.Optional(
    Type.String({
      description: 'Custom range start (inclusive): YYYY-MM-DD (a UTC day) or an ISO-8601 date-time (UTC without offset). Overrides range.',
      examples: ['2026-11-01'],
    }),
  ),
  to: Type.Optional(
    Type.String({
      description:
        'Custom range end (inclusive; a bare date covers its whole day). Needs from; defaults to the end of today when only from is given. At most 10 years after from.',
      examples: ['2026-11-30'],
    }),
  ),
  compare: Type.Optional(
    Type.Enum(['1', 'true', 'previous', '0', 'false'], {
      description:
        '1, true or previous: add `previous` (the same metrics for the previous calendar period of a preset, or the same length just before from for a custom range) and `change`.',
    }),
  ),
};
export const AnalyticsQuery = Type.Object(AnalyticsQueryProps);

export const SalesQuery = Type.Object({
  ...AnalyticsQueryProps,
  owner_user_id: Type.Optional(Id('Only deals owned by this team user (404 user_not_found when not in the account).')),
  by: Type.Optional(
    Type.Enum(['owner', 'closer'], {
      description: 'Group by_rep by deal owner (default) or by closed_by_user_id (won and lost only; created stays with the owner).',
    }),
  ),
});

/**
 * A report: its range and period, the period's metrics, the "now" metrics, and with compare
 * `previous` (period metrics of the previous period) and `change` (one change object per numeric total).
 */
function Report<P extends TProperties, N extends TProperties>(
  title: string,
  description: string,
  periodMetrics: P,
  nowMetrics: N,
  change: TProperties,
  extra: TProperties = {},
) {
  return Type.Object(
    {
      range: Type.String({ enum: [...PRESETS, 'custom'], description: 'The preset used, or `custom` for from/to.' }),
      period: ref('AnalyticsPeriod'),
      ...extra,
      ...periodMetrics,
      ...nowMetrics,
      previous: Type.Optional(
        Type.Object({ period: ref('AnalyticsPeriod'), ...periodMetrics }, { description: 'With compare: the same period metrics for the previous period.' }),
      ),
      change: Type.Optional(Type.Object(change, { description: 'With compare: a change object per numeric total, current against previous.' })),
    },
    { title, description },
  );
}

const Chg = ref('AnalyticsChange');
const changeProps = (keys: readonly string[]): TProperties => Object.fromEntries(keys.map((k) => [k, Chg]));
const changeOf = (keys: readonly string[]) => Type.Object(changeProps(keys));

export const FUNNEL_STAGES = ['new', 'qualified', 'proposal', 'negotiation', 'won'] as const;
const Funnel = Type.Object(
  Object.fromEntries(FUNNEL_STAGES.map((s) => [s, Count(`Deals created in the period whose status history has a change to ${s} (the creation included).`)])),
  {
    description:
      'Of the deals created in the period, how many reached each stage, read from their status history: a deal counts at a stage when its history (including the creation entry) has a status change to that stage, at most once per deal and stage. Stages are not cumulative: a deal created directly as won counts at won only, and one created as qualified does not count at new. Lost counts for no stage.',
  },
);
const Rep = Type.Object({
  user_id: Nullable(Id('Team user; null for deals without one.')),
  display_name: Nullable(Type.String()),
  created: Count('Deals created in the period (always by owner).'),
  won: Count('Deals won in the period (closed_at in it), by owner or closer as `by` says.'),
  lost: Count('Deals lost in the period.'),
  win_rate: Rate('100 × won / (won + lost), 1 decimal; null when none closed.'),
});
const LostReason = Type.Object({
  code: Nullable(Type.String({ description: 'lost_reason code; null when the deal was lost without one.' })),
  label: Nullable(Type.String()),
  count: Count('Deals lost in the period with this reason.'),
});
const PipelineStatus = Type.Object({
  status: Type.String({ enum: ['new', 'qualified', 'proposal', 'negotiation'] }),
  count: Count('Open deals in this status now.'),
  values: Type.Array(ref('MoneyTotal'), { description: 'Their value per currency (deals without a value are counted, not summed).' }),
});

export const SalesReport = Report(
  'SalesReport',
  'Sales facts. A deal counts as won or lost in the period of its closed_at; created by created_at. open_pipeline describes now (the clock at the request), not the period.',
  {
    created: Count('Deals created in the period.'),
    won: Count('Deals won, closed_at in the period.'),
    lost: Count('Deals lost, closed_at in the period.'),
    win_rate: Rate('100 × won / (won + lost), 1 decimal; null when no deal closed in the period.'),
    by_rep: Type.Array(Rep, {
      description:
        'Per team user (by owner, or by closer with by=closer); users with no deal in the period are omitted. Ordered by won, created (both descending), then user id, null last.',
    }),
    funnel: Funnel,
    lost_reasons: Type.Array(LostReason, { description: 'Deals lost in the period per reason code, most frequent first, then by code (null last).' }),
  },
  {
    open_pipeline: Type.Object(
      {
        count: Count('Open deals (new, qualified, proposal, negotiation) now.'),
        values: Type.Array(ref('MoneyTotal'), { description: 'Value of the open deals per currency.' }),
        by_status: Type.Array(PipelineStatus, { description: 'Every open status, in funnel order.' }),
        overdue_followups: Count('Open deals whose next_followup_at is in the past.'),
        deals_without_activity_14d: Count(
          'Open deals with no activity and no creation within the last 14 days (last activity or creation before now − 14 days).',
        ),
      },
      { description: 'Now, whatever the period.' },
    ),
  },
  {
    ...changeProps(['created', 'won', 'lost']),
    win_rate: Type.Union([Chg, Type.Null()], {
      description:
        'The win rate in percentage points, computed from the rounded rates shown (win_rate and previous.win_rate, 1 decimal each): absolute = win_rate − previous.win_rate rounded to 1 decimal, percent = 100 × absolute / previous.win_rate rounded to 1 decimal, note by the same rules. Null when either side has no rate (no deal closed in that period).',
    }),
    funnel: changeOf(FUNNEL_STAGES),
  },
  {
    by: Type.String({ enum: ['owner', 'closer'], description: 'How by_rep groups.' }),
    owner_user_id: Nullable(Id('The owner filter, when given.')),
  },
);

const SupportGroup = (key: TProperties) =>
  Type.Object({
    ...key,
    created: Count('Tickets created in the period.'),
    closed: Count('Tickets closed in the period (status closed, closed_at in it).'),
    support_updates: Count('Support logs written in the period.'),
    currently_open: Count('Tickets open or pending now.'),
  });
export const SUPPORT_TOTALS = ['created', 'closed', 'support_updates'] as const;
export const SupportReport = Report(
  'SupportReport',
  'Support facts: tickets created, closed in the period, support updates (logs) in the period; currently_open and aged_open describe now.',
  {
    created: Count('Tickets created in the period.'),
    closed: Count('Tickets resolved/closed in the period (status closed, closed_at in the period).'),
    support_updates: Count('Support logs (ticket updates) created in the period.'),
    by_employee: Type.Array(
      SupportGroup({
        user_id: Nullable(Id('Ticket owner / log author; null for unassigned tickets and logs by API keys.')),
        display_name: Nullable(Type.String()),
      }),
      {
        description:
          'Per team user: tickets they own (created, closed, open now) and logs they wrote. Users with nothing are omitted. Ordered by user id, null last.',
      },
    ),
    by_customer: Type.Array(SupportGroup({ org_id: Id('Customer org.'), name: Type.String() }), {
      description: 'The 50 customer orgs with the most tickets created, then closed, updates, open now (then by org id).',
    }),
  },
  {
    currently_open: Count('Tickets open or pending now.'),
    aged_open: Count('Tickets open or pending now and created more than 7 days before now.'),
  },
  changeProps(SUPPORT_TOTALS),
);

export const TEAM_TOTALS = ['deals_created', 'deals_won', 'deals_lost', 'activities', 'tickets_closed', 'support_logs'] as const;
const teamFacts = {
  deals_created: Count('Deals created in the period, by owner.'),
  deals_won: Count('Deals won in the period (closed_at), by owner.'),
  deals_lost: Count('Deals lost in the period (closed_at), by owner.'),
  activities: Count('Deal activities logged in the period, by author.'),
  tickets_closed: Count('Tickets closed in the period, by owner.'),
  support_logs: Count('Support logs written in the period, by author.'),
};
export const TeamReport = Report(
  'TeamReport',
  'Per-user totals of the period.',
  {
    users: Type.Array(
      Type.Object({
        user_id: Nullable(Id('Team user; null for the row of records without a user.')),
        display_name: Nullable(Type.String({ description: 'Null for the row of records without a user.' })),
        is_active: Nullable(Type.Boolean({ description: 'Null for the row of records without a user.' })),
        ...teamFacts,
      }),
      {
        description:
          'Every team user of the account (zero-filled), by id; then, when any of these facts has records without a user (deals without an owner, activities made by API keys, logs without an author, unowned closed tickets), one last row with user_id, display_name and is_active null holding them. The rows sum to totals.',
      },
    ),
    totals: Type.Object(teamFacts, { description: 'The same facts over the whole account, including records without a user; the sum of the users rows.' }),
  },
  {},
  { totals: changeOf(TEAM_TOTALS) },
);

const RankRow = Type.Object({ org_id: Id(), name: Type.String(), value: Count('The metric for this org.') });
const Ranking = (d: string) => Type.Array(RankRow, { description: `${d} Top 10 orgs, highest first, ties by org id.` });
export const CUSTOMER_TOTALS = [
  'customers_with_deals_created',
  'customers_with_deals_won',
  'customers_with_activities',
  'customers_with_tickets_created',
  'customers_with_support_updates',
] as const;
export const CustomersReport = Report(
  'CustomersReport',
  'Customer org rankings by numeric facts (facts only, no health labels).',
  {
    rankings: Type.Object({
      deals_created: Ranking('Deals created in the period.'),
      deals_won: Ranking('Deals won in the period.'),
      activities: Ranking('Deal activities in the period.'),
      tickets_created: Ranking('Tickets created in the period.'),
      support_updates: Ranking('Support logs in the period.'),
    }),
    totals: Type.Object({
      customers_with_deals_created: Count('Orgs with at least one deal created in the period.'),
      customers_with_deals_won: Count('Orgs with at least one deal won in the period.'),
      customers_with_activities: Count('Orgs with at least one deal activity in the period.'),
      customers_with_tickets_created: Count('Orgs with at least one ticket created in the period.'),
      customers_with_support_updates: Count('Orgs with at least one support log in the period.'),
    }),
  },
  {
    now_rankings: Type.Object(
      {
        open_deals: Ranking('Open deals now.'),
        open_tickets: Ranking('Open or pending tickets now.'),
      },
      { description: 'Rankings of now, whatever the period.' },
    ),
    customers_with_open_support_and_open_deals: Type.Object({
      count: Count('Orgs that have, now, an open or pending ticket and an open deal.'),
      orgs: Type.Array(
        Type.Object({ org_id: Id(), name: Type.String(), open_tickets: Count('Open or pending tickets now.'), open_deals: Count('Open deals now.') }),
        {
          description: 'The first 50 of them by open tickets, open deals (descending), then org id.',
        },
      ),
    }),
  },
  { totals: changeOf(CUSTOMER_TOTALS) },
);

export const ACTIVITY_KINDS = ['note', 'email', 'call', 'meeting'] as const;
export const ActivityReport = Report(
  'ActivityReport',
  'Activity volume of the period: deal timeline activities by kind and support logs, by source as in the unified activity feed.',
  {
    total: Count('Timeline activities plus support logs in the period.'),
    by_source: Type.Object({ timeline: Count('Deal timeline activities.'), support_log: Count('Support logs.') }),
    by_kind: Type.Object(Object.fromEntries(ACTIVITY_KINDS.map((k) => [k, Count(`Timeline activities of kind ${k}.`)])), {
      description: 'Timeline activities per activity kind.',
    }),
  },
  {},
  { total: Chg, by_source: changeOf(['timeline', 'support_log']), by_kind: changeOf(ACTIVITY_KINDS) },
);

export const TREND_FACTS = ['deals_created', 'deals_won', 'deals_lost', 'activities', 'tickets_created', 'tickets_closed', 'support_logs'] as const;
const trendFacts = Object.fromEntries(TREND_FACTS.map((k) => [k, Count(k.replace('_', ' ') + ' in the period and week.')]));
export const TrendsReport = Report(
  'TrendsReport',
  'Facts per ISO week (UTC, Monday to Monday) in the period, one row per week that overlaps it, zero-filled; a week cut by the period counts only what lies inside the period.',
  {
    weeks: Type.Array(
      Type.Object({
        week: Type.String({ pattern: '^\\d{4}-W\\d{2}$', description: 'ISO week, e.g. 2026-W47.', examples: ['2026-W47'] }),
        week_start: Type.String({
          format: 'date',
          description: 'The Monday starting the week (may lie before the period: the row still counts only the days inside it).',
        }),
        ...trendFacts,
      }),
      {
        description:
          'One row per ISO week overlapping the period, oldest first, zero-filled. Rows are clipped to the period: a week at an edge of the period counts only its days inside the period.',
      },
    ),
    totals: Type.Object(trendFacts, { description: 'Sums over the weeks.' }),
  },
  {},
  { totals: changeOf(TREND_FACTS) },
);
