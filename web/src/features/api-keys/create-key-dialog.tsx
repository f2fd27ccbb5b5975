import { useState, type FormEvent } from 'react';
import { Alert } from '../../components/alert';
import { CopyButton } from '../../components/copy-button';
import { Dialog, DoneAction, FormActions } from '../../components/dialog';
import { SecretField } from '../../components/secret';
import { CheckboxGroup, TextField } from '../../components/field';
import { formErrorsOf } from '../../lib/api';
import { useFormFields } from '../../lib/form-fields';
import type { ApiKey, Scope } from '../../lib/types';
import { useCreateKey } from './api';
import { PRESETS, SCOPE_OPTIONS, scopesOf, type Preset } from './scopes';

type Created = ApiKey & { secret: string };

/** The form, then (once created) the secret: shown this one time, with a copy button and an MCP snippet for agents. */
export function CreateKeyDialog({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateKey();
  const [preset, setPreset] = useState<Preset>('full');
  const [custom, setCustom] = useState<Scope[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { values, field, reset } = useFormFields({ name: '', rate_limit_per_minute: '' }, (f) => errors[f]);
  const { name, rate_limit_per_minute: rateLimit } = values;
  const [created, setCreated] = useState<Created | null>(null);

  function close(open: boolean) {
    if (open) return onOpenChange(true);
    reset();
    setPreset('full');
    setCustom([]);
    setErrors({});
    setCreated(null);
    onOpenChange(false);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (name.trim() === '') local.name = 'Give the key a name, such as the integration that uses it.';
    const scopes = scopesOf(preset, custom);
    if (scopes.length === 0) local.scopes = 'Choose at least one scope.';
    if (rateLimit !== '' && !(/^\d+$/.test(rateLimit) && Number(rateLimit) >= 1))
      local.rate_limit_per_minute = 'A whole number of requests per minute, 1 or more.';
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      setCreated(await create.mutateAsync({ name: name.trim(), scopes, rate_limit_per_minute: rateLimit === '' ? null : Number(rateLimit) }));
    } catch (err) {
      setErrors(formErrorsOf(err, 'The server refused this'));
    }
  }

  if (created) {
    const mcp = JSON.stringify(
      { mcpServers: { custops: { url: `${window.location.origin}/mcp`, headers: { Authorization: `Bearer ${created.secret}` } } } },
      null,
      2,
    );
    const agent = created.scopes.length === 1 && created.scopes[0] === 'read';
    return (
      <Dialog title="Your new API key" isOpen={isOpen} onOpenChange={close}>
        <Alert tone="warning">Copy the secret now. It is shown only this once; custops keeps only a hash of it.</Alert>
        <p>
          <strong>{created.name}</strong>, scopes {created.scopes.join(', ')}
        </p>
        <SecretField label="Secret" value={created.secret} copyLabel="Copy secret" />
        {agent ? (
          <>
            <h3>Use it with an AI agent (MCP)</h3>
            <p>Add this server to the agent's MCP configuration. It can read through every tool and change nothing.</p>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable block must take focus so the keyboard can scroll it (axe scrollable-region-focusable) */}
            <pre tabIndex={0}>{mcp}</pre>
            <CopyButton text={mcp} label="Copy MCP configuration" />
          </>
        ) : null}
        <DoneAction onDone={() => close(false)} />
      </Dialog>
    );
  }

  return (
    <Dialog title="Create API key" isOpen={isOpen} onOpenChange={close}>
      <form onSubmit={submit} noValidate>
        {errors.form ? <Alert>{errors.form}</Alert> : null}
        <TextField label="Name" {...field('name')} autoFocus />
        <fieldset className="field">
          <legend>Access</legend>
          {PRESETS.map((p) => (
            <label key={p.value} className="checkbox">
              <input type="radio" name="preset" value={p.value} checked={preset === p.value} onChange={() => setPreset(p.value)} />
              <span>
                {p.label} <span className="muted">— {p.description}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {preset === 'custom' ? (
          <CheckboxGroup legend="Scopes" options={SCOPE_OPTIONS} value={custom} onChange={(v) => setCustom(v as Scope[])} error={errors.scopes} />
        ) : null}
        {preset !== 'custom' && errors.scopes ? <p className="field-error">{errors.scopes}</p> : null}
        <TextField
          label="Rate limit (requests per minute)"
          inputMode="numeric"
          {...field('rate_limit_per_minute')}
          description="Leave empty for the server's default."
        />
        <FormActions submitLabel="Create key" onCancel={() => close(false)} pending={create.isPending} />
      </form>
    </Dialog>
  );
}
