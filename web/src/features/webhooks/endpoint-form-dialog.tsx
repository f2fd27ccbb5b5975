import { useState, type FormEvent } from 'react';
import { Alert } from '../../components/alert';
import { Dialog, FormActions, SecretShownDialog } from '../../components/dialog';
import { CheckboxGroup, TextField } from '../../components/field';
import { formErrorsOf } from '../../lib/api';
import { useFormFields } from '../../lib/form-fields';
import type { EventType, WebhookEndpoint } from '../../lib/types';
import { EVENT_TYPES, useCreateEndpoint, useUpdateEndpoint } from './api';

/** Create (then show the signing secret once) or edit an endpoint. */
export function EndpointFormDialog({ endpoint, isOpen, onOpenChange }: { endpoint?: WebhookEndpoint; isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateEndpoint();
  const update = useUpdateEndpoint();
  const [types, setTypes] = useState<EventType[]>((endpoint?.event_types as EventType[] | undefined) ?? []);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { values, field, reset } = useFormFields({ name: endpoint?.name ?? '', url: endpoint?.url ?? 'https://' }, (f) => errors[f]);
  const { name, url } = values;
  const [secret, setSecret] = useState<string | null>(null);

  function close() {
    setErrors({});
    setSecret(null);
    if (!endpoint) {
      reset();
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
      setErrors(formErrorsOf(err, 'Refused by the server'));
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
        <TextField label="Name" {...field('name')} autoFocus />
        <TextField label="URL" type="url" {...field('url')} description="HTTPS only; private and internal addresses are refused." />
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
