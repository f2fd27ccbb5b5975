import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/button';
import { FilterForm } from '../../components/filter-form';
import { TextField } from '../../components/field';
import { Page } from '../../components/page';
import { SearchResults } from './search-results';
import { useSearchResults } from './use-search-results';

const route = getRouteApi('/signed-in/search');

/** The search as a page (its query in the URL): 25 hits of each kind. */
export function SearchPage() {
  const { q = '' } = route.useSearch();
  const navigate = route.useNavigate();
  const [text, setText] = useState(q);
  const results = useSearchResults(q, 25);
  return (
    <Page title="Search">
      <FilterForm onSubmit={() => void navigate({ search: text.trim() ? { q: text.trim() } : {} })}>
        <TextField label="Search for" type="search" value={text} onChange={(e) => setText(e.target.value)} />
        <Button type="submit">Search</Button>
      </FilterForm>
      <SearchResults q={q} results={results} />
    </Page>
  );
}
