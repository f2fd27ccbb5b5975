import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { SelectField, TextField } from '../../components/field';
import { FormError, fieldError } from '../../components/states';
import { api, unwrap } from '../../lib/api';
import { fromLocalInput, toLocalInput } from '../../lib/datetime-input';
import { contactName, formatDateTime } from '../../lib/format';
import { useFormFields } from '../../lib/form-fields';
import { useUsers } from '../../lib/lookups';
import type { Deal } from '../../lib/schemas';

interface Draft {
  title: string;
  owner_user_id: string;
  value: string;
  currency: string;
  next_followup_at: string;
  contact_id: string;
}

const draftOf = (d: Deal): Draft => ({
  title: d.title,
  owner_user_id: d.owner_user_id === null ? '' : String(d.owner_user_id),
  value: d.value ?? '',
  currency: d.currency ?? '',
  next_followup_at: toLocalInput(d.next_followup_at),
  contact_id: d.contact_id === null ? '' : String(d.contact_id),
});

/**
 * The editable fields of a deal. Only changed fields are sent; the server's field errors show
 * beside their fields. If the deal changes on the server while this form is being edited, a
 * notice says so (with a way to load the newest values) instead of silently overwriting.
 */
export function DealFieldsForm({ deal }: { deal: Deal }) {
  const queryClient = useQueryClient();
  const users = useUsers();
  const [base, setBase] = useState(deal);
  // A field's error is the server's reason for it from the last save (read as the fields render, once `save` below exists).
  const serverError = (name: keyof Draft) => fieldError(save.error, name);
  const { values: draft, setValues: setDraft, field } = useFormFields(() => draftOf(deal), serverError);
  const contacts = useQuery({
    queryKey: ['contacts', 'of-org', deal.org_id],
    queryFn: () => unwrap(api.GET('/api/v1/contacts', { params: { query: { org_id: deal.org_id, per_page: 100 } } })),
  });
  const initial = draftOf(base);
  const dirty = (Object.keys(draft) as (keyof Draft)[]).some((k) => draft[k] !== initial[k]);
  const stale = deal.updated_at !== base.updated_at;
  if (stale && !dirty) {
    // Nothing typed yet: simply show the newest values.
    setBase(deal);
    setDraft(draftOf(deal));
  }
  const save = useMutation({
    mutationFn: () => {
      const body: Record<string, unknown> = {};
      if (draft.title !== initial.title) body.title = draft.title;
      if (draft.owner_user_id !== initial.owner_user_id) body.owner_user_id = draft.owner_user_id ? Number(draft.owner_user_id) : null;
      if (draft.value !== initial.value) body.value = draft.value.trim() === '' ? null : draft.value.trim();
      if (draft.currency !== initial.currency) body.currency = draft.currency.trim() === '' ? null : draft.currency.trim();
      if (draft.next_followup_at !== initial.next_followup_at) body.next_followup_at = fromLocalInput(draft.next_followup_at);
      if (draft.contact_id !== initial.contact_id) body.contact_id = draft.contact_id ? Number(draft.contact_id) : null;
      return unwrap(api.PATCH('/api/v1/deals/{id}', { params: { path: { id: deal.id } }, body }));
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(['deal', saved.id], saved);
      setBase(saved);
      setDraft(draftOf(saved));
      void queryClient.invalidateQueries({ queryKey: ['deals'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} className="form-grid" aria-label="Deal fields" noValidate>
      {stale && dirty ? (
        <Alert tone="warning">
          Someone changed this deal at {formatDateTime(deal.updated_at)}, after you started editing. Saving sends only the fields you changed.{' '}
          <Button
            onClick={() => {
              setBase(deal);
              setDraft(draftOf(deal));
            }}
          >
            Discard my changes and load theirs
          </Button>
        </Alert>
      ) : null}
      <TextField label="Title" {...field('title')} required maxLength={500} />
      <SelectField label="Owner" {...field('owner_user_id')}>
        <option value="">Unassigned</option>
        {users
          .filter((u) => u.is_active || String(u.id) === draft.owner_user_id)
          .map((u) => (
            <option key={u.id} value={u.id}>
              {u.display_name}
            </option>
          ))}
      </SelectField>
      <TextField label="Value" inputMode="decimal" {...field('value')} description="Up to two decimals, e.g. 1250.00" />
      <TextField label="Currency" {...field('currency')} maxLength={3} description="Three letters, e.g. EUR" />
      <TextField label="Next follow-up" type="datetime-local" {...field('next_followup_at')} />
      <SelectField label="Contact" {...field('contact_id')}>
        <option value="">No contact</option>
        {(contacts.data?.data ?? []).map((c) => (
          <option key={c.id} value={c.id}>
            {contactName(c)}
          </option>
        ))}
      </SelectField>
      <FormError error={save.error} />
      {save.isSuccess && !dirty ? <Alert tone="success">Saved.</Alert> : null}
      <div className="form-actions">
        <Button type="submit" variant="primary" disabled={!dirty || save.isPending}>
          {save.isPending ? 'Saving…' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}
