import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { api, unwrap } from '../lib/api';
import { Button } from './button';
import { Dialog, FormActions } from './dialog';
import { TextField } from './field';
import { FormError, fieldError } from './states';

/**
 * Asks why a deal was lost before it is marked lost: a code and a label, with the reasons the
 * account used most recently (GET /deals/lost-reasons) offered as one-click choices.
 */
export function LostReasonDialog({
  dealTitle,
  isOpen,
  onCancel,
  onSubmit,
  pending,
  error,
}: {
  dealTitle: string;
  isOpen: boolean;
  onCancel: () => void;
  onSubmit: (reason: { code: string; label: string }) => void;
  pending: boolean;
  error: unknown;
}) {
  const [code, setCode] = useState('');
  const [label, setLabel] = useState('');
  const [missing, setMissing] = useState<{ code?: string; label?: string }>({});
  const recent = useQuery({
    queryKey: ['lost-reasons'],
    queryFn: () => unwrap(api.GET('/api/v1/deals/lost-reasons', { params: { query: { per_page: 8 } } })),
    enabled: isOpen,
  });
  useEffect(() => {
    if (isOpen) {
      setCode('');
      setLabel('');
      setMissing({});
    }
  }, [isOpen]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = { code: code.trim() ? undefined : 'Required.', label: label.trim() ? undefined : 'Required.' };
    setMissing(problems);
    if (problems.code || problems.label) return;
    onSubmit({ code: code.trim(), label: label.trim() });
  };
  return (
    <Dialog title={`Mark “${dealTitle}” as lost`} isOpen={isOpen} onOpenChange={(open) => (open ? undefined : onCancel())}>
      <form onSubmit={submit} className="dialog-body" noValidate>
        {recent.data && recent.data.data.length > 0 ? (
          <fieldset className="field">
            <legend>Recent reasons</legend>
            <div className="chips">
              {recent.data.data.map((r) => (
                <Button
                  key={`${r.code}\u0000${r.label}`}
                  onClick={() => {
                    setCode(r.code);
                    setLabel(r.label);
                  }}
                  aria-label={`Use reason ${r.label} (${r.code}), ${r.deals} lost deals`}
                >
                  {r.label} <span className="muted">({r.code})</span>
                </Button>
              ))}
            </div>
          </fieldset>
        ) : null}
        <TextField
          label="Reason code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          maxLength={100}
          error={missing.code ?? fieldError(error, 'lost_reason.code') ?? fieldError(error, 'lost_reason')}
          description="Short and stable, e.g. price"
        />
        <TextField
          label="Reason label"
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          maxLength={500}
          error={missing.label ?? fieldError(error, 'lost_reason.label')}
        />
        <FormError error={error} />
        <FormActions submitLabel="Mark as lost" onCancel={onCancel} pending={pending} variant="danger" />
      </form>
    </Dialog>
  );
}
