import { Link } from '@tanstack/react-router';
import { formatDateTime } from '../lib/format';
import type { ActivityItem } from '../lib/schemas';

const TYPE_LABEL: Record<ActivityItem['type'], string> = { note: 'Note', email: 'Email', call: 'Call', meeting: 'Meeting', support_log: 'Support log' };

/** Entries of the unified feed, each linking to its deal or ticket and its organization. */
export function ActivityList({ items, label = 'Activity' }: { items: ActivityItem[]; label?: string }) {
  return (
    <ol className="entries" aria-label={label}>
      {items.map((a) => (
        <li key={a.id} className="entry">
          <p className="entry-head">
            <strong>{TYPE_LABEL[a.type]}</strong>
            {a.outcome ? <span className="badge"> {a.outcome}</span> : null}{' '}
            <span className="muted">
              {formatDateTime(a.occurred_at)} · {a.employee ? a.employee.display_name : 'through the API'}
              {a.customer ? (
                <>
                  {' · '}
                  <Link to="/orgs/$orgId" params={{ orgId: String(a.customer.org_id) }}>
                    {a.customer.name}
                  </Link>
                </>
              ) : null}
            </span>
          </p>
          <p className="entry-body">{a.content}</p>
          <p className="entry-link">
            {a.deal_id !== null ? (
              <Link to="/deals/$dealId" params={{ dealId: String(a.deal_id) }}>
                Open deal #{a.deal_id}
              </Link>
            ) : null}
            {a.ticket_id !== null ? (
              <Link to="/tickets/$ticketId" params={{ ticketId: String(a.ticket_id) }}>
                Open ticket #{a.ticket_id}
              </Link>
            ) : null}
          </p>
        </li>
      ))}
    </ol>
  );
}
