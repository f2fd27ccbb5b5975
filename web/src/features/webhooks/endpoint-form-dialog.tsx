import { useState, type FormEvent } from 'react';
import { Alert } from '../../components/alert';
import { Dialog, FormActions, SecretShownDialog } from '../../components/dialog';
import { CheckboxGroup, TextField } from '../../components/field';
import { ApiError } from '../../lib/api';
import type { EventType, WebhookEndpoint } from '../../lib/types';
import { EVENT_TYPES, useCreateEndpoint, useUpdateEndpoint } from './api';

/** Create (then show the signing secret once) or edit an endpoint. */
export function EndpointFormDialog({ endpoint, isOpen, onOpenChange }: { endpoint?: WebhookEndpoint; isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateEndpoint();
  const update = useUpdateEndpoint();
  const [name, setName] = useState(endpoint?.name ?? '');
  const [url, setUrl] = useState(endpoint?.url ?? 'https://');
  const [types, setTypes] = useState<EventType[]>((endpoint?.event_types as EventType[] | undefined) ?? []);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [secret, setSecret] = useState<string | null>(null);

  function close() {
    setErrors({});
    setSecret(null);
    if (!endpoint) {
      setName('');
      setUrl('https://');
      setTypes([]);
    }
    onOpenChange(false);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (name.trim() === '') local.name = 'Name the receiver.';
    try {
      const u = new URL(url.trim());
      if (u.protocol !== 'https:' && u.protocol !== 'http:') local.url = 'Use an https:// address.';
    } catch {
      local.url = 'Enter a full address, such as https://example.com/hooks/custops.';
    }
    if (types.length === 0) local.event_types = 'Choose at least one event type.';
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      const body = { name: name.trim(), url: url.trim(), event_types: types };
      if (endpoint) {
        await update.mutateAsync({ id: endpoint.id, ...body });
        close();
      } else {
        setSecret((await create.mutateAsync(body)).secret);
      }
    } catch (err) {
      setErrors(err instanceof ApiError ? { ...fieldsOf(err.fields), form: err.message } : { form: 'The server could not be reached.' });
    }
  }

  if (secret) {
    return (
      <SecretShownDialog
        title="Endpoint added"
        isOpen={isOpen}
        warning="Copy the signing secret now: it is shown only this once. Your receiver verifies every delivery with it."
        label="Signing secret"
        secret={secret}
        copyLabel="Copy signing secret"
        onDone={close}
      />
    );
  }

  return (
    <Dialog title={endpoint ? `Edit ${endpoint.name}` : 'Add webhook endpoint'} isOpen={isOpen} onOpenChange={(open) => (open ? onOpenChange(true) : close())}>
      <form onSubmit={submit} noValidate>
        {errors.form ? <Alert>{errors.form}</Alert> : null}
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} autoFocus />
        <TextField
          label="URL"
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={errors.url}
          description="HTTPS only; private and internal addresses are refused."
        />
        <CheckboxGroup
          legend="Event types"
          options={EVENT_TYPES.map((t) => ({ value: t, label: <span className="mono">{t}</span> }))}
          value={types}
          onChange={(v) => setTypes(v as EventType[])}
          error={errors.event_types}
        />
        <FormActions submitLabel={endpoint ? 'Save' : 'Add endpoint'} onCancel={close} pending={create.isPending || update.isPending} />
      </form>
    </Dialog>
  );
}

function fieldsOf(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) out[k.split('.')[0]] = `Refused by the server: ${v.replaceAll('_', ' ')}.`;
  return out;
}
