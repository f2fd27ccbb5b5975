import { useUsers } from '../lib/lookups';
import { SelectField } from './field';

/** A filter by team user (an owner, an author): anyone, or one user, chosen as a user id. */
export function UserFilter({ label = 'Owner', value, onChange }: { label?: string; value: number | undefined; onChange: (id: number | undefined) => void }) {
  const users = useUsers();
  return (
    <SelectField label={label} value={value ?? ''} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : undefined)}>
      <option value="">Anyone</option>
      {users.map((u) => (
        <option key={u.id} value={u.id}>
          {u.display_name}
        </option>
      ))}
    </SelectField>
  );
}
