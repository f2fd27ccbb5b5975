import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { CheckboxGroup } from '../../components/field';
import { Empty, ErrorState, FormError, Loading } from '../../components/states';
import { api, unwrap } from '../../lib/api';
import { canManage, useSession } from '../../lib/session';

/**
 * The contact's marketing audiences. Owners and admins may change them (PUT replaces the set);
 * members see them read-only, as the server allows.
 */
export function Audiences({ contactId }: { contactId: number }) {
  const session = useSession();
  const editable = canManage(session.user.role);
  const queryClient = useQueryClient();
  const mine = useQuery({
    queryKey: ['contact', contactId, 'audiences'],
    queryFn: () => unwrap(api.GET('/api/v1/contacts/{id}/marketing-audiences', { params: { path: { id: contactId }, query: { per_page: 100 } } })),
  });
  const all = useQuery({
    queryKey: ['audiences', 'all'],
    queryFn: () => unwrap(api.GET('/api/v1/marketing-audiences', { params: { query: { per_page: 100 } } })),
    enabled: editable,
  });
  const [chosen, setChosen] = useState<string[]>([]);
  useEffect(() => {
    if (mine.data) setChosen(mine.data.data.map((a) => String(a.id)));
  }, [mine.data]);
  const save = useMutation({
    mutationFn: () =>
      unwrap(api.PUT('/api/v1/contacts/{id}/marketing-audiences', { params: { path: { id: contactId } }, body: { audience_ids: chosen.map(Number) } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['contact', contactId, 'audiences'] }),
  });
  if (mine.isPending) return <Loading />;
  if (mine.isError) return <ErrorState error={mine.error} thing="contact" onRetry={() => void mine.refetch()} />;
  if (!editable) {
    return mine.data.data.length === 0 ? (
      <Empty>In no marketing audience.</Empty>
    ) : (
      <ul className="plain-list">
        {mine.data.data.map((a) => (
          <li key={a.id}>{a.name}</li>
        ))}
      </ul>
    );
  }
  const options = (all.data?.data ?? []).map((a) => ({ value: String(a.id), label: a.name }));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      {options.length === 0 ? (
        <Empty>The account has no marketing audience yet.</Empty>
      ) : (
        <CheckboxGroup legend="Marketing audiences" options={options} value={chosen} onChange={setChosen} />
      )}
      <FormError error={save.error} />
      {save.isSuccess ? <Alert tone="success">Audiences saved.</Alert> : null}
      {options.length > 0 ? (
        <Button type="submit" variant="primary" disabled={save.isPending}>
          Save audiences
        </Button>
      ) : null}
    </form>
  );
}
