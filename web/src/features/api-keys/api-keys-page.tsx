import { useState } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Alert } from '../../components/alert';
import { ACTIONS_COLUMN, DataTable } from '../../components/data-table';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/dialog';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { formatDateTime, formatRelative } from '../../lib/format';
import type { ApiKey } from '../../lib/types';
import { useApiKeys, useRevokeKey } from './api';
import { CreateKeyDialog } from './create-key-dialog';

export function ApiKeysPage() {
  const { page = 1 } = useSearch({ from: '/signed-in/api-keys' });
  const navigate = useNavigate({ from: '/api-keys' });
  const keys = useApiKeys(page);
  const revoke = useRevokeKey();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <Page
      title="API keys"
      actions={
        <Button variant="primary" onClick={() => setCreating(true)}>
          Create API key
        </Button>
      }
    >
      <p className="muted">Keys authenticate integrations and AI agents. A secret is shown once, when the key is created; only its prefix is kept in view.</p>
      {keys.error ? <Alert>{keys.error.message}</Alert> : null}
      {revoke.error ? <Alert>{revoke.error.message}</Alert> : null}
      <DataTable caption="API keys of the account" columns={['Name', 'Prefix', 'Scopes', 'Rate limit', 'Created', 'Last used', 'Status', ACTIONS_COLUMN]}>
        {keys.data?.data.map((key) => (
          <tr key={key.id}>
            <td>{key.name}</td>
            <td className="mono">{key.prefix}…</td>
            <td>{key.scopes.join(', ')}</td>
            <td>{key.rate_limit_per_minute === null ? 'default' : `${key.rate_limit_per_minute}/min`}</td>
            <td>{formatDateTime(key.created_at)}</td>
            <td title={formatDateTime(key.last_used_at)}>{key.last_used_at ? formatRelative(key.last_used_at) : 'never'}</td>
            <td>
              {key.revoked_at ? (
                <span className="badge badge-neutral">Revoked {formatDateTime(key.revoked_at)}</span>
              ) : (
                <span className="badge badge-ok">Active</span>
              )}
            </td>
            <td>
              {key.revoked_at ? null : (
                <Button variant="link" aria-label={`Revoke ${key.name}`} onClick={() => setRevoking(key)}>
                  Revoke
                </Button>
              )}
            </td>
          </tr>
        ))}
        {keys.data && keys.data.data.length === 0 ? (
          <tr>
            <td colSpan={8}>No API keys yet.</td>
          </tr>
        ) : null}
      </DataTable>
      {keys.data ? <Pager pagination={keys.data.pagination} onPage={(p) => navigate({ search: { page: p } })} /> : null}
      <CreateKeyDialog isOpen={creating} onOpenChange={setCreating} />
      <ConfirmDialog
        title="Revoke this API key?"
        isOpen={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        confirmLabel="Revoke key"
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      >
        <p>
          Requests with <strong>{revoking?.name}</strong> ({revoking?.prefix}…) are refused from now on. This cannot be undone.
        </p>
      </ConfirmDialog>
    </Page>
  );
}
