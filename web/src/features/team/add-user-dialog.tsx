import { useState, type FormEvent } from 'react';
import { Alert } from '../../components/alert';
import { Dialog, FormActions } from '../../components/dialog';
import { SelectField, TextField } from '../../components/field';
import { ApiError } from '../../lib/api';
import type { Role } from '../../lib/types';
import { useAddUser } from './api';

const EMPTY = { email: '', display_name: '', role: 'member' as Role, password: '', support_enabled: false };

export function AddUserDialog({ isOpen, onOpenChange, canMakeOwner }: { isOpen: boolean; onOpenChange: (open: boolean) => void; canMakeOwner: boolean }) {
  const add = useAddUser();
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});

  function close() {
    setForm(EMPTY);
    setErrors({});
    onOpenChange(false);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(form.email.trim())) local.email = 'Enter an email address.';
    if (form.display_name.trim() === '') local.display_name = 'Enter a name.';
    if (form.password.length < 8) local.password = 'At least 8 characters; tell it to the user, who can change it after signing in.';
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      await add.mutateAsync({ ...form, email: form.email.trim(), display_name: form.display_name.trim() });
      close();
    } catch (err) {
      setErrors(err instanceof ApiError ? { ...err.fields, form: err.message } : { form: 'The server could not be reached.' });
    }
  }

  return (
    <Dialog title="Add a team user" isOpen={isOpen} onOpenChange={(open) => (open ? onOpenChange(true) : close())}>
      <form onSubmit={submit} noValidate>
        {errors.form ? <Alert>{errors.form}</Alert> : null}
        <TextField label="Email" type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} error={errors.email} autoFocus />
        <TextField label="Name" value={form.display_name} onChange={(e) => setForm({ ...form, display_name: e.target.value })} error={errors.display_name} />
        <SelectField label="Role" value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })} error={errors.role}>
          <option value="member">member</option>
          <option value="admin">admin</option>
          {canMakeOwner ? <option value="owner">owner</option> : null}
        </SelectField>
        <TextField
          label="First password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={(e) => setForm({ ...form, password: e.target.value })}
          error={errors.password}
        />
        <label className="checkbox">
          <input type="checkbox" checked={form.support_enabled} onChange={(e) => setForm({ ...form, support_enabled: e.target.checked })} />
          <span>Works support tickets</span>
        </label>
        <FormActions submitLabel="Add user" onCancel={close} pending={add.isPending} />
      </form>
    </Dialog>
  );
}
