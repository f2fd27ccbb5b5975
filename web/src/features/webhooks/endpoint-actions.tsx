import { useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { ConfirmDialog, Dialog, FormActions, SecretShownDialog } from '../../components/dialog';
import { Options, SelectField, TextField } from '../../components/field';
import { ApiError } from '../../lib/api';
import type { EventType, WebhookEndpoint } from '../../lib/types';
import { EVENT_TYPES, useDeleteEndpoint, useRecover, useRotateSecret, useTestSend, useUpdateEndpoint } from './api';
import { EndpointFormDialog } from './endpoint-form-dialog';

type Open = 'edit' | 'rotate' | 'recover' | 'test' | 'delete' | null;

/** Everything an owner or admin can do to one endpoint, each behind its own dialog. */
export function EndpointActions({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [open, setOpen] = useState<Open>(null);
  const update = useUpdateEndpoint();
  const close = () => setOpen(null);
  return (
    <div className="stack">
      {update.error ? <Alert>{update.error.message}</Alert> : null}
      <div className="row">
        <Button variant="primary" onClick={() => setOpen('test')}>
          Send test event
        </Button>
        <Button onClick={() => setOpen('edit')}>Edit</Button>
        <Button onClick={() => update.mutate({ id: endpoint.id, enabled: !endpoint.enabled })} disabled={update.isPending}>
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </Button>
        <Button onClick={() => setOpen('rotate')}>Rotate secret</Button>
        <Button onClick={() => setOpen('recover')}>Recover failed deliveries</Button>
        <Button variant="danger" onClick={() => setOpen('delete')}>
          Delete
        </Button>
      </div>
      <EndpointFormDialog endpoint={endpoint} isOpen={open === 'edit'} onOpenChange={(o) => setOpen(o ? 'edit' : null)} />
      {open === 'test' ? <TestSendDialog endpoint={endpoint} onClose={close} /> : null}
      {open === 'rotate' ? <RotateDialog endpoint={endpoint} onClose={close} /> : null}
      {open === 'recover' ? <RecoverDialog endpoint={endpoint} onClose={close} /> : null}
      {open === 'delete' ? <DeleteDialog endpoint={endpoint} onClose={close} /> : null}
    </div>
  );
}

function TestSendDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const send = useTestSend();
  const navigate = useNavigate();
  const [type, setType] = useState<EventType>((endpoint.event_types[0] as EventType | undefined) ?? 'deal.created');
  const [error, setError] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      const delivery = await send.mutateAsync({ id: endpoint.id, event_type: type });
      onClose();
      await navigate({ to: '/webhooks/deliveries/$deliveryId', params: { deliveryId: String(delivery.id) } });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The server could not be reached.');
    }
  }
  return (
    <Dialog title="Send a test event" isOpen onOpenChange={(o) => !o && onClose()}>
      <form onSubmit={submit} noValidate>
        <p>
          custops builds the event from your newest matching record, marks it <code>"test": true</code> with the header <code>X-Service-Test: 1</code>, and
          sends it to this endpoint only. A failed test is not retried on its own.
        </p>
        {error ? <Alert>{error}</Alert> : null}
        <SelectField label="Event type" value={type} onChange={(e) => setType(e.target.value as EventType)}>
          <Options values={EVENT_TYPES} />
        </SelectField>
        <FormActions submitLabel="Send test" onCancel={onClose} pending={send.isPending} />
      </form>
    </Dialog>
  );
}

function RotateDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const rotate = useRotateSecret();
  const result = rotate.data as { secret: string; previous_secret_expires_at?: string | null } | undefined;
  if (result) {
    return (
      <SecretShownDialog
        title="New signing secret"
        warning="Copy the new secret now: it is shown only this once."
        label="New signing secret"
        secret={result.secret}
        copyLabel="Copy new secret"
        onDone={onClose}
      />
    );
  }
  return (
    <ConfirmChange
      title="Rotate the signing secret?"
      confirmLabel="Rotate secret"
      change={rotate}
      onConfirm={() => rotate.mutate(endpoint.id)}
      onClose={onClose}
    >
      <p>A new secret signs every delivery from now on. For the next 24 hours the old secret signs them too, so nothing breaks while you deploy:</p>
      <ul>
        <li>
          <code>X-Service-Signature</code> carries the new secret's signature; <code>X-Service-Signature-Previous</code> the old one's.
        </li>
        <li>
          <code>webhook-signature</code> carries both, newest first.
        </li>
      </ul>
      <p>After 24 hours only the new secret signs.</p>
    </ConfirmChange>
  );
}

function RecoverDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const recover = useRecover();
  const [since, setSince] = useState(() => new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 16));
  const [error, setError] = useState<string | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const at = new Date(since);
    if (Number.isNaN(at.getTime())) return setError('Choose a date and time.');
    try {
      await recover.mutateAsync({ id: endpoint.id, since: at.toISOString() });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The server could not be reached.');
    }
  }
  return (
    <Dialog title="Recover failed deliveries" isOpen onOpenChange={(o) => !o && onClose()}>
      <form onSubmit={submit} noValidate>
        <p>Every failed delivery of this endpoint created since the time below is queued for a new attempt now.</p>
        {recover.data ? <Alert tone="success">{recover.data.requeued} deliveries queued.</Alert> : null}
        <TextField label="Since (your local time)" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} error={error} />
        <div className="dialog-actions">
          <Button onClick={onClose}>{recover.data ? 'Close' : 'Cancel'}</Button>
          {recover.data ? null : (
            <Button type="submit" variant="primary" disabled={recover.isPending}>
              Recover
            </Button>
          )}
        </div>
      </form>
    </Dialog>
  );
}

function DeleteDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const remove = useDeleteEndpoint();
  const navigate = useNavigate();
  const removeAndLeave = () => remove.mutate(endpoint.id, { onSuccess: () => navigate({ to: '/webhooks' }) });
  return (
    <ConfirmChange title="Delete this endpoint?" confirmLabel="Delete endpoint" change={remove} onConfirm={removeAndLeave} onClose={onClose}>
      <p>
        <strong>{endpoint.name}</strong> stops receiving events at once, and its delivery history is removed.
      </p>
    </ConfirmChange>
  );
}

/** Asks before a change that cannot be undone (open while mounted); the change's failure shows in the dialog. */
function ConfirmChange({
  title,
  confirmLabel,
  change,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  confirmLabel: string;
  change: { isPending: boolean; error: { message: string } | null };
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <ConfirmDialog title={title} isOpen onOpenChange={(o) => !o && onClose()} confirmLabel={confirmLabel} pending={change.isPending} onConfirm={onConfirm}>
      {change.error ? <Alert>{change.error.message}</Alert> : null}
      {children}
    </ConfirmDialog>
  );
}
