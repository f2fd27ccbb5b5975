import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Fact } from '../../components/facts';
import { SelectField, TextField } from '../../components/field';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { Empty, ErrorState, FormError, Loading, RecordPageState, fieldError } from '../../components/states';
import { TextAreaField } from '../../components/textarea-field';
import { api, unwrap } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { contactQuery, orgQuery, useUserName, useUsers } from '../../lib/lookups';
import { TICKET_STATUS_LABEL, type Ticket } from '../../lib/schemas';

const route = getRouteApi('/signed-in/tickets/$ticketId');

type TicketPatch = { status?: Ticket['status']; owner_user_id?: number | null; title?: string };

function usePatchTicket(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TicketPatch) => unwrap(api.PATCH('/api/v1/support/tickets/{id}', { params: { path: { id } }, body })),
    onSuccess: (ticket) => {
      queryClient.setQueryData(['ticket', id], ticket);
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
    },
  });
}

/** Close, reopen, set pending; assign an owner among the support-enabled, active users; rename. */
function TicketActions({ ticket }: { ticket: Ticket }) {
  const patch = usePatchTicket(ticket.id);
  const closed = ticket.status === 'closed';
  const move = (status: Ticket['status']) => {
    if (!patch.isPending) patch.mutate({ status });
  };
  return (
    <div className="ticket-actions">
      {/* One button each whatever the status, never disabled (a disabled button drops the focus):
          the keyboard focus stays on the button just pressed, under its new name. */}
      <div className="button-row">
        <Button variant="primary" onClick={() => move(closed ? 'open' : 'closed')} aria-disabled={patch.isPending || undefined}>
          {closed ? 'Reopen ticket' : 'Close ticket'}
        </Button>
        {closed ? null : (
          <Button onClick={() => move(ticket.status === 'open' ? 'pending' : 'open')} aria-disabled={patch.isPending || undefined}>
            {ticket.status === 'open' ? 'Mark pending' : 'Mark open'}
          </Button>
        )}
      </div>
      <OwnerAndTitle key={`${ticket.id}-${ticket.updated_at}`} ticket={ticket} patch={patch} />
      <FormError error={patch.error} />
      {patch.isSuccess ? <Alert tone="success">Saved: the ticket is {TICKET_STATUS_LABEL[patch.data.status].toLowerCase()}.</Alert> : null}
    </div>
  );
}

/** The owner and title forms, reset to the ticket's values whenever it changes. */
function OwnerAndTitle({ ticket, patch }: { ticket: Ticket; patch: ReturnType<typeof usePatchTicket> }) {
  const users = useUsers();
  const [owner, setOwner] = useState(ticket.owner_user_id === null ? '' : String(ticket.owner_user_id));
  const [title, setTitle] = useState(ticket.title);
  const agents = users.filter((u) => (u.support_enabled && u.is_active) || u.id === ticket.owner_user_id);
  return (
    <>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          patch.mutate({ owner_user_id: owner ? Number(owner) : null });
        }}
      >
        <SelectField
          label="Owner"
          value={owner}
          onChange={(e) => setOwner(e.target.value)}
          error={fieldError(patch.error, 'owner_user_id')}
          description="Support-enabled team members"
        >
          <option value="">Unassigned</option>
          {agents.map((u) => (
            <option key={u.id} value={u.id}>
              {u.display_name}
            </option>
          ))}
        </SelectField>
        <Button type="submit" disabled={patch.isPending || owner === (ticket.owner_user_id === null ? '' : String(ticket.owner_user_id))}>
          Assign
        </Button>
      </form>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          patch.mutate({ title });
        }}
      >
        <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={500} error={fieldError(patch.error, 'title')} />
        <Button type="submit" disabled={patch.isPending || title === ticket.title}>
          Rename
        </Button>
      </form>
    </>
  );
}

/** Adds an update to the ticket (POST /support/tickets/{id}/logs), written as the signed-in user. */
function AddLogForm({ ticketId }: { ticketId: number }) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const [channel, setChannel] = useState('console');
  const [missing, setMissing] = useState(false);
  const add = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/support/tickets/{id}/logs', { params: { path: { id: ticketId } }, body: { note, channel } })),
    onSuccess: () => {
      setNote('');
      void queryClient.invalidateQueries({ queryKey: ['ticket', ticketId] });
      void queryClient.invalidateQueries({ queryKey: ['activity'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMissing(!note.trim());
    if (note.trim()) add.mutate();
  };
  return (
    <form onSubmit={submit} className="log-form" aria-label="Add a log" noValidate>
      <TextAreaField label="Note" value={note} onChange={(e) => setNote(e.target.value)} error={missing ? 'Required.' : fieldError(add.error, 'note')} />
      <TextField label="Channel" value={channel} onChange={(e) => setChannel(e.target.value)} maxLength={50} error={fieldError(add.error, 'channel')} />
      <FormError error={add.error} />
      {add.isSuccess ? <Alert tone="success">Log added.</Alert> : null}
      <Button type="submit" variant="primary" disabled={add.isPending}>
        Add log
      </Button>
    </form>
  );
}

function TicketLogs({ ticketId }: { ticketId: number }) {
  const userName = useUserName();
  const [page, setPage] = useState(1);
  const logs = useQuery({
    queryKey: ['ticket', ticketId, 'logs', page],
    queryFn: () => unwrap(api.GET('/api/v1/support/tickets/{id}/logs', { params: { path: { id: ticketId }, query: { page, per_page: 20 } } })),
  });
  if (logs.isPending) return <Loading label="Loading the logs…" />;
  if (logs.isError) return <ErrorState error={logs.error} thing="ticket" onRetry={() => void logs.refetch()} />;
  if (logs.data.data.length === 0) return <Empty>No log yet.</Empty>;
  return (
    <>
      <ol className="entries" aria-label="Logs">
        {logs.data.data.map((l) => (
          <li key={l.id} className="entry">
            <p className="entry-head">
              <span className="muted">
                {formatDateTime(l.created_at)} · {l.channel} · {l.author_user_id === null ? 'through the API' : userName(l.author_user_id)}
              </span>
            </p>
            <p className="entry-body">{l.note}</p>
          </li>
        ))}
      </ol>
      <Pager pagination={logs.data.pagination} onPage={setPage} />
    </>
  );
}

/** One ticket: its facts, actions, logs and the form to add one. */
export function TicketPage() {
  const { ticketId } = route.useParams();
  const id = Number(ticketId);
  const userName = useUserName();
  const ticket = useQuery({
    queryKey: ['ticket', id],
    queryFn: () => unwrap(api.GET('/api/v1/support/tickets/{id}', { params: { path: { id } } })),
    refetchInterval: 20_000,
  });
  const org = useQuery({ ...orgQuery(ticket.data?.org_id ?? 0), enabled: ticket.isSuccess });
  const contact = useQuery({ ...contactQuery(ticket.data?.contact_id ?? 0), enabled: Boolean(ticket.data?.contact_id) });
  if (!ticket.isSuccess) return <RecordPageState query={ticket} thing="ticket" title="Ticket" />;
  const t = ticket.data;
  return (
    <Page title={t.title}>
      <p className="related">
        Organization:{' '}
        <Link to="/orgs/$orgId" params={{ orgId: String(t.org_id) }}>
          {org.data?.name ?? `Organization ${t.org_id}`}
        </Link>
        {t.contact_id !== null ? (
          <>
            {' · '}Contact:{' '}
            <Link to="/contacts/$contactId" params={{ contactId: String(t.contact_id) }}>
              {contact.data?.name ?? contact.data?.email ?? `Contact ${t.contact_id}`}
            </Link>
          </>
        ) : null}
      </p>
      <dl className="facts">
        <Fact label="Status">
          <span className={`status status-${t.status}`}>{TICKET_STATUS_LABEL[t.status]}</span>
        </Fact>
        <Fact label="Owner">{userName(t.owner_user_id)}</Fact>
        <Fact label="Channel">{t.channel}</Fact>
        <Fact label="Created">{formatDateTime(t.created_at)}</Fact>
        {t.closed_at ? <Fact label="Closed">{formatDateTime(t.closed_at)}</Fact> : null}
        {t.external_reference ? <Fact label="External reference">{t.external_reference}</Fact> : null}
      </dl>
      <p className="details">{t.details}</p>
      <div className="columns">
        <section aria-labelledby="ticket-actions">
          <h2 id="ticket-actions">Actions</h2>
          <TicketActions key={t.id} ticket={t} />
        </section>
        <section aria-labelledby="ticket-logs">
          <h2 id="ticket-logs">Logs</h2>
          <AddLogForm ticketId={t.id} />
          <TicketLogs ticketId={t.id} />
        </section>
      </div>
    </Page>
  );
}
