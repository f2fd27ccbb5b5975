import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Dialog, FormActions } from '../../components/dialog';
import { SelectField, TextField } from '../../components/field';
import { OrgPicker } from '../../components/org-picker';
import { FormError, fieldError } from '../../components/states';
import { TextAreaField } from '../../components/textarea-field';
import { api, unwrap } from '../../lib/api';
import { contactName } from '../../lib/format';

/**
 * Opens a ticket for an organization and one of its contacts (or a new contact by e-mail),
 * through POST /support/tickets with the org's id; the server writes the first log and events.
 */
export function NewTicketDialog({ isOpen, onClose, initialOrg }: { isOpen: boolean; onClose: () => void; initialOrg?: number }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [org, setOrg] = useState<number | undefined>(initialOrg);
  const [contact, setContact] = useState('');
  const [email, setEmail] = useState('');
  const [title, setTitle] = useState('');
  const [details, setDetails] = useState('');
  const [missing, setMissing] = useState<Record<string, string>>({});
  const contacts = useQuery({
    queryKey: ['contacts', 'of-org', org],
    queryFn: () => unwrap(api.GET('/api/v1/contacts', { params: { query: { org_id: org, per_page: 100 } } })),
    enabled: org !== undefined,
  });
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/support/tickets', {
          body: {
            source_app: 'console',
            channel: 'console',
            org_id: org,
            title,
            details,
            ...(contact ? { contact_id: Number(contact) } : { contact_email: email.trim() }),
          },
        }),
      ),
    onSuccess: (ticket) => {
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
      onClose();
      void navigate({ to: '/tickets/$ticketId', params: { ticketId: String(ticket.id) } });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (org === undefined) problems.org = 'Required.';
    if (!contact && !email.trim()) problems.contact = 'Choose a contact or give an e-mail.';
    if (!title.trim()) problems.title = 'Required.';
    if (!details.trim()) problems.details = 'Required.';
    setMissing(problems);
    if (Object.keys(problems).length === 0) create.mutate();
  };
  return (
    <Dialog title="New ticket" isOpen={isOpen} onOpenChange={(open) => (open ? undefined : onClose())}>
      <form onSubmit={submit} className="dialog-body" noValidate>
        <OrgPicker
          value={org}
          onChange={(v) => {
            setOrg(v);
            setContact('');
          }}
          isRequired
          error={missing.org ?? fieldError(create.error, 'org_id')}
        />
        <SelectField
          label="Contact"
          value={contact}
          onChange={(e) => setContact(e.target.value)}
          disabled={org === undefined}
          error={missing.contact ?? fieldError(create.error, 'contact_id')}
        >
          <option value="">A new contact (by e-mail)</option>
          {(contacts.data?.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {contactName(c)}
            </option>
          ))}
        </SelectField>
        {contact === '' ? (
          <TextField
            label="Contact e-mail"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={fieldError(create.error, 'contact_email')}
          />
        ) : null}
        <TextField
          label="Title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          maxLength={500}
          error={missing.title ?? fieldError(create.error, 'title')}
        />
        <TextAreaField
          label="Details"
          value={details}
          onChange={(e) => setDetails(e.target.value)}
          error={missing.details ?? fieldError(create.error, 'details')}
        />
        <FormError error={create.error} />
        <FormActions submitLabel="Open ticket" onCancel={onClose} pending={create.isPending} />
      </form>
    </Dialog>
  );
}
