import { useState } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Alert } from '../../components/alert';
import { ACTIONS_COLUMN, DataTable } from '../../components/data-table';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/dialog';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { formatDateTime } from '../../lib/format';
import { useSession } from '../../lib/session';
import type { User } from '../../lib/types';
import { AddUserDialog } from './add-user-dialog';
import { useTeam, useUpdateUser } from './api';
import { EditUserDialog } from './edit-user-dialog';

export function TeamPage() {
  const { page = 1 } = useSearch({ from: '/signed-in/team' });
  const navigate = useNavigate({ from: '/team' });
  const me = useSession().user;
  const team = useTeam(page);
  const update = useUpdateUser();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<User | null>(null);
  const [deactivating, setDeactivating] = useState<User | null>(null);
  // The server is the judge; these mirror its owner rules so the page offers only what will work.
  const mayChange = (u: User) => u.id !== me.id && (u.role !== 'owner' || me.role === 'owner');

  return (
    <Page
      title="Team"
      actions={
        <Button variant="primary" onClick={() => setAdding(true)}>
          Add user
        </Button>
      }
    >
      {team.error ? <Alert>{team.error.message}</Alert> : null}
      {update.error ? <Alert>{update.error.message}</Alert> : null}
      <DataTable caption="Team users" columns={['Name', 'Email', 'Role', 'Status', 'Support', 'Added', ACTIONS_COLUMN]}>
        {team.data?.data.map((u) => (
          <tr key={u.id}>
            <td>
              {u.display_name}
              {u.id === me.id ? <span className="muted"> (you)</span> : null}
            </td>
            <td>{u.email}</td>
            <td>{u.role}</td>
            <td>{u.is_active ? <span className="badge badge-ok">Active</span> : <span className="badge badge-neutral">Deactivated</span>}</td>
            <td>{u.support_enabled ? 'Yes' : 'No'}</td>
            <td>{formatDateTime(u.created_at)}</td>
            <td>
              {mayChange(u) ? (
                <span className="row">
                  <Button variant="link" aria-label={`Edit ${u.display_name}`} onClick={() => setEditing(u)}>
                    Edit
                  </Button>
                  {u.is_active ? (
                    <Button variant="link" aria-label={`Deactivate ${u.display_name}`} onClick={() => setDeactivating(u)}>
                      Deactivate
                    </Button>
                  ) : (
                    <Button variant="link" aria-label={`Reactivate ${u.display_name}`} onClick={() => update.mutate({ id: u.id, is_active: true })}>
                      Reactivate
                    </Button>
                  )}
                </span>
              ) : null}
            </td>
          </tr>
        ))}
      </DataTable>
      {team.data ? <Pager pagination={team.data.pagination} onPage={(p) => navigate({ search: { page: p } })} /> : null}
      <AddUserDialog isOpen={adding} onOpenChange={setAdding} canMakeOwner={me.role === 'owner'} />
      {editing ? <EditUserDialog user={editing} canMakeOwner={me.role === 'owner'} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        title="Deactivate this user?"
        isOpen={deactivating !== null}
        onOpenChange={(open) => !open && setDeactivating(null)}
        confirmLabel="Deactivate"
        pending={update.isPending}
        onConfirm={() => deactivating && update.mutate({ id: deactivating.id, is_active: false }, { onSettled: () => setDeactivating(null) })}
      >
        <p>
          <strong>{deactivating?.display_name}</strong> is signed out everywhere at once and cannot sign in until reactivated. Their records stay.
        </p>
      </ConfirmDialog>
    </Page>
  );
}
