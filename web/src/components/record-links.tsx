import { Link } from '@tanstack/react-router';
import { contactName } from '../lib/format';
import { formatMoney } from '../lib/money';
import { type Contact, type Deal, STATUS_LABEL, type Ticket, TICKET_STATUS_LABEL } from '../lib/schemas';

/** Contacts as links to their pages, each with its e-mail when the link shows the name. */
export function ContactLinks({ contacts }: { contacts: Contact[] }) {
  return (
    <ul className="plain-list">
      {contacts.map((c) => (
        <li key={c.id}>
          <Link to="/contacts/$contactId" params={{ contactId: String(c.id) }}>
            {contactName(c)}
          </Link>
          {c.email && c.name ? <span className="muted"> · {c.email}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** Deals as links to their pages, each with its status and value, and its owner when `userName` is given. */
export function DealLinks({ deals, userName }: { deals: Deal[]; userName?: (id: number | null) => string }) {
  return (
    <ul className="plain-list">
      {deals.map((d) => (
        <li key={d.id}>
          <Link to="/deals/$dealId" params={{ dealId: String(d.id) }}>
            {d.title}
          </Link>{' '}
          <span className="muted">
            · {STATUS_LABEL[d.status]} · {formatMoney(d.value, d.currency)}
            {userName ? ` · ${userName(d.owner_user_id)}` : null}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Tickets as links to their pages, each with its status. */
export function TicketLinks({ tickets }: { tickets: Ticket[] }) {
  return (
    <ul className="plain-list">
      {tickets.map((t) => (
        <li key={t.id}>
          <Link to="/tickets/$ticketId" params={{ ticketId: String(t.id) }}>
            {t.title}
          </Link>{' '}
          <span className="muted">· {TICKET_STATUS_LABEL[t.status]}</span>
        </li>
      ))}
    </ul>
  );
}
