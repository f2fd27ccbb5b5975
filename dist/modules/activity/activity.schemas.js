import { Type } from 'typebox';
import { DateParam, Id, ListOf, Nullable, PageQuery, Timestamp } from '../../http/schemas.js';
/** Every value `source` accepts: `sales` is an alias of `timeline`, `support` of `support_log`. */
export const SOURCE_PARAMS = ['all', 'timeline', 'sales', 'support_log', 'support'];
/** Rows taken from each source, newest first, before the merged feed is paginated. */
export const ACTIVITY_CAP_PER_SOURCE = 500;
export const ActivityEmployee = Type.Object({
    id: Id(),
    display_name: Type.String(),
    email: Type.String(),
}, { $id: 'ActivityEmployee', title: 'ActivityEmployee', description: 'The team user who made the entry.' });
export const ActivityCustomer = Type.Object({
    org_id: Id(),
    name: Type.String({ description: 'The organization name.' }),
    contact: Nullable(Type.Object({ id: Id(), name: Nullable(Type.String()), email: Nullable(Type.String()) }, { title: 'ActivityContact', description: "The deal's or ticket's contact, when it has one." })),
}, { $id: 'ActivityCustomer', title: 'ActivityCustomer', description: 'The customer organization the entry concerns.' });
export const ActivityItem = Type.Object({
    id: Type.String({
        pattern: '^(timeline|support_log):[1-9][0-9]*$',
        description: 'Composite id: `timeline:<deal activity id>` or `support_log:<support log id>`.',
        examples: ['timeline:42', 'support_log:7'],
    }),
    type: Type.Enum(['note', 'email', 'call', 'meeting', 'support_log'], {
        description: 'For a timeline entry, the activity kind (`note`, `email`, `call`, `meeting`); for a support log, `support_log`.',
    }),
    source: Type.Enum(['timeline', 'support_log'], { description: 'Where the entry comes from: a deal timeline or a support ticket log.' }),
    content: Type.String({ description: 'The timeline message, or the support log note.' }),
    employee: Nullable(Type.Ref('ActivityEmployee')),
    customer: Nullable(Type.Ref('ActivityCustomer')),
    deal_id: Nullable(Id('The related deal (timeline entries); null for support logs.')),
    ticket_id: Nullable(Id('The related ticket (support logs); null for timeline entries.')),
    outcome: Nullable(Type.Enum(['success', 'failed', 'skipped'], { description: 'Timeline entries: the outcome, if recorded.' })),
    channel: Nullable(Type.String({ description: 'Support logs: the channel of the update; null for timeline entries.' })),
    occurred_at: Timestamp('When the activity happened (the same as created_at).'),
    created_at: Timestamp(),
}, { $id: 'ActivityItem', title: 'ActivityItem', description: 'One entry of the unified activity feed.' });
export const ActivityListQuery = Type.Object({
    org_id: Type.Optional(Id('Only entries of this customer organization.')),
    employee_user_id: Type.Optional(Id('Only entries made by this team user (deal activity user_id, support log author).')),
    user_id: Type.Optional(Id('Alias of employee_user_id; when both are given they must be equal.')),
    deal_id: Type.Optional(Id('Only timeline entries of this deal (support logs have no deal, so none match).')),
    ticket_id: Type.Optional(Id('Only support logs of this ticket (timeline entries have no ticket, so none match).')),
    source: Type.Optional(Type.Enum([...SOURCE_PARAMS], {
        default: 'all',
        description: '`all` (both), `timeline` or its alias `sales` (deal activities), `support_log` or its alias `support` (ticket logs).',
    })),
    from: Type.Optional(DateParam('Entries created at or after this instant (a bare date: from its first millisecond, UTC).')),
    to: Type.Optional(DateParam('Entries created at or before this instant (a bare date covers that whole UTC day).')),
    ...PageQuery,
});
export const ActivityList = ListOf(Type.Ref('ActivityItem'), 'ActivityList');
