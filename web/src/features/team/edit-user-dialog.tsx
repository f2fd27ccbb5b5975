import { useState, type FormEvent } from 'react';
import { Alert } from '../../components/alert';
import { Dialog, FormActions } from '../../components/dialog';
import { SelectField } from '../../components/field';
import { ApiError } from '../../lib/api';
import type { Role, User } from '../../lib/types';
import { useUpdateUser } from './api';

export function EditUserDialog({ user, canMakeOwner, onClose }: { user: User; canMakeOwner: boolean; onClose: () => void }) {
  const update = useUpdateUser();
  const [role, setRole] = useState<Role>(user.role);
  const [support, setSupport] = useState(user.support_enabled);
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await update.mutateAsync({ id: user.id, ...(role !== user.role ? { role } : {}), support_enabled: support });
      onClose();
    } catch (err) {
      setErrors(err instanceof ApiError ? { ...err.fields, form: err.message } : { form: 'The server could not be reached.' });
    }
  }

  return (
    <Dialog title={`Edit ${user.display_name}`} isOpen onOpenChange={(open) => !open && onClose()}>
      <form onSubmit={submit} noValidate>
        {errors.form ? <Alert>{errors.form}</Alert> : null}
        <SelectField label="Role" value={role} onChange={(e) => setRole(e.target.value as Role)} error={errors.role}>
          <option value="member">member</option>
          <option value="admin">admin</option>
          {canMakeOwner || user.role === 'owner' ? <option value="owner">owner</option> : null}
        </SelectField>
        <label className="checkbox">
          <input type="checkbox" checked={support} onChange={(e) => setSupport(e.target.checked)} />
          <span>Works support tickets</span>
        </label>
        <FormActions submitLabel="Save" onCancel={onClose} pending={update.isPending} />
      </form>
    </Dialog>
  );
}
