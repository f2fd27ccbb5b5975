import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { Empty, FormError, fieldError } from '../../components/states';
import { api, unwrap } from '../../lib/api';
import type { Org } from '../../lib/schemas';

/**
 * The org's external ids: which integrating app (source_app) maps which of its tenant ids here,
 * and a form to link a new pair by hand (PUT /orgs/{id}/external-ids).
 */
export function ExternalIds({ org }: { org: Org }) {
  const queryClient = useQueryClient();
  const [app, setApp] = useState('');
  const [external, setExternal] = useState('');
  const [missing, setMissing] = useState<{ app?: string; external?: string }>({});
  const link = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/v1/orgs/{org_id}/external-ids', {
          params: { path: { org_id: org.id } },
          body: { source_app: app.trim(), external_org_id: external.trim() },
        }),
      ),
    onSuccess: () => {
      setApp('');
      setExternal('');
      void queryClient.invalidateQueries({ queryKey: ['org', org.id] });
      void queryClient.invalidateQueries({ queryKey: ['orgs'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = { app: app.trim() ? undefined : 'Required.', external: external.trim() ? undefined : 'Required.' };
    setMissing(problems);
    if (!problems.app && !problems.external) link.mutate();
  };
  return (
    <div>
      {org.external_ids.length === 0 ? (
        <Empty>No integration maps a tenant to this organization yet.</Empty>
      ) : (
        <table className="table table-spaced">
          <caption className="visually-hidden">External ids</caption>
          <thead>
            <tr>
              <th scope="col">App (source_app)</th>
              <th scope="col">Its tenant id</th>
            </tr>
          </thead>
          <tbody>
            {org.external_ids.map((x) => (
              <tr key={`${x.source_app}\u0000${x.external_org_id}`}>
                <td>{x.source_app}</td>
                <td>{x.external_org_id}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={submit} className="inline-form" aria-label="Link an external id" noValidate>
        <TextField
          label="Source app"
          value={app}
          onChange={(e) => setApp(e.target.value)}
          maxLength={100}
          error={missing.app ?? fieldError(link.error, 'source_app')}
        />
        <TextField
          label="External org id"
          value={external}
          onChange={(e) => setExternal(e.target.value)}
          maxLength={200}
          error={missing.external ?? fieldError(link.error, 'external_org_id')}
        />
        <Button type="submit" variant="primary" disabled={link.isPending}>
          Link
        </Button>
      </form>
      <FormError error={link.error} />
      {link.isSuccess ? <Alert tone="success">Linked.</Alert> : null}
    </div>
  );
}
