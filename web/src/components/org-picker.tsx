import '../lib/react-aria-csp';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { api, unwrap } from '../lib/api';
import { orgQuery } from '../lib/lookups';
import type { Org } from '../lib/schemas';

/**
 * Picks a customer organization by typing part of its name (GET /orgs?q=…, ten at a time):
 * an account may have tens of thousands, so they are never all listed. React Aria's ComboBox
 * gives the listbox keyboard behaviour and announcements.
 */
export function OrgPicker({
  label = 'Organization',
  value,
  onChange,
  error,
  isRequired,
}: {
  label?: string;
  value: number | undefined;
  onChange: (id: number | undefined) => void;
  error?: string;
  isRequired?: boolean;
}) {
  const selected = useQuery({ ...orgQuery(value ?? 0), enabled: value !== undefined });
  const [input, setInput] = useState('');
  const [typed, setTyped] = useState('');
  useEffect(() => {
    if (value === undefined) setInput('');
    else if (selected.data) setInput(selected.data.name);
  }, [value, selected.data]);
  useEffect(() => {
    const t = setTimeout(() => setTyped(input), 200);
    return () => clearTimeout(t);
  }, [input]);
  const options = useQuery({
    queryKey: ['orgs', 'pick', typed],
    queryFn: () => unwrap(api.GET('/api/v1/orgs', { params: { query: { q: typed || undefined, per_page: 10 } } })),
    staleTime: 30_000,
    // The last list stays while the next search loads, so the list does not flash empty.
    placeholderData: keepPreviousData,
  });
  const items = options.data?.data ?? [];
  return (
    <ComboBox
      className="field combo"
      items={items}
      inputValue={input}
      onInputChange={(text) => {
        setInput(text);
        if (text === '' && value !== undefined) onChange(undefined);
      }}
      selectedKey={value ?? null}
      onSelectionChange={(key) => {
        // A null key here is not the user clearing the field (an empty input does that, above):
        // React Aria reports null when the field loses focus while the selected org is not among
        // the listed results (a search still loading), and that must not drop the filter. The
        // same key again asks to put the selected name back in the input.
        // Whatever was typed since goes: the input shows the org the filter holds.
        if (key === null) {
          setInput(selected.data?.name ?? '');
          return;
        }
        if (Number(key) === value) setInput(selected.data?.name ?? input);
        else onChange(Number(key));
      }}
      allowsEmptyCollection
      menuTrigger="focus"
      isRequired={isRequired}
      isInvalid={Boolean(error)}
    >
      <Label>{label}</Label>
      <div className="combo-input">
        <Input placeholder="Type to search" />
        <Button aria-label={`Show ${label.toLowerCase()} choices`}>▾</Button>
      </div>
      {error ? (
        <p className="field-error" slot="errorMessage">
          {error}
        </p>
      ) : null}
      <Popover className="popover">
        <ListBox<Org>
          className="listbox"
          renderEmptyState={() => <p className="muted listbox-empty">{options.isLoading ? 'Searching…' : 'No organization matches.'}</p>}
        >
          {(org) => (
            <ListBoxItem id={org.id} textValue={org.name} className="listbox-item">
              {org.name}
              {org.domain ? <span className="muted"> · {org.domain}</span> : null}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
