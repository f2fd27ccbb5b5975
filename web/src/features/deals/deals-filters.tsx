import { useState } from 'react';
import { Button } from '../../components/button';
import { FilterForm } from '../../components/filter-form';
import { Options, SelectField, TextField } from '../../components/field';
import { UserFilter } from '../../components/user-filter';
import { OrgPicker } from '../../components/org-picker';
import { DEAL_STATUSES, STATUS_LABEL } from '../../lib/schemas';
import { PER_PAGE_CHOICES, type DealsSearch } from './deals-search';

/** The filter bar of the deals table: each change goes into the URL (a new history entry). */
export function DealsFilters({ search, onChange }: { search: DealsSearch; onChange: (next: Partial<DealsSearch>) => void }) {
  const [q, setQ] = useState(search.q ?? '');
  const day = (name: keyof DealsSearch, label: string) => (
    <TextField
      label={label}
      type="date"
      value={(search[name] as string | undefined) ?? ''}
      onChange={(e) => onChange({ [name]: e.target.value || undefined })}
    />
  );
  return (
    <FilterForm label="Filter deals" onSubmit={() => onChange({ q: q.trim() || undefined })}>
      <TextField label="Title contains" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      <Button type="submit">Search</Button>
      <SelectField label="Status" value={search.status ?? ''} onChange={(e) => onChange({ status: (e.target.value || undefined) as DealsSearch['status'] })}>
        <Options values={DEAL_STATUSES} labels={STATUS_LABEL} none="Any status" />
      </SelectField>
      <UserFilter value={search.owner_user_id} onChange={(owner_user_id) => onChange({ owner_user_id })} />
      <OrgPicker value={search.org_id} onChange={(org_id) => onChange({ org_id })} />
      {day('created_from', 'Created from')}
      {day('created_to', 'Created to')}
      {day('updated_from', 'Updated from')}
      {day('updated_to', 'Updated to')}
      <SelectField label="Per page" value={search.per_page ?? 25} onChange={(e) => onChange({ per_page: Number(e.target.value) })}>
        <Options values={PER_PAGE_CHOICES} />
      </SelectField>
      {search.contact_id ? (
        <p className="muted">
          Contact #{search.contact_id}{' '}
          <Button variant="link" onClick={() => onChange({ contact_id: undefined })}>
            Any contact
          </Button>
        </p>
      ) : null}
    </FilterForm>
  );
}
