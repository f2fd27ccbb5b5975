import './work.css';
import type { ReactNode } from 'react';
import { ApiError } from '../lib/api';
import { Alert } from './alert';
import { Page } from './page';
import { Button } from './button';

/** Shown while data loads: announced politely, with the layout kept calm. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="state state-loading" role="status" aria-live="polite">
      {label}
    </p>
  );
}

/** Nothing to show: say what is empty and, where it helps, what to do next. */
export function Empty({ children }: { children: ReactNode }) {
  return <p className="state state-empty">{children}</p>;
}

/**
 * A failed read. A 404 for a record means it was deleted (or never existed) since the link was
 * made: said plainly, never a blank page. Other failures offer a retry.
 */
export function ErrorState({ error, thing, onRetry }: { error: unknown; thing?: string; onRetry?: () => void }) {
  if (error instanceof ApiError && error.status === 404 && thing) {
    return <Alert tone="warning">This {thing} does not exist any more: it was deleted, or the link is wrong.</Alert>;
  }
  const message = error instanceof ApiError ? error.message : 'The service could not be reached.';
  return (
    <Alert>
      <span>
        Could not load {thing ? `this ${thing}` : 'the data'}: {message}
      </span>{' '}
      {onRetry ? <Button onClick={onRetry}>Try again</Button> : null}
    </Alert>
  );
}

/**
 * A record page whose record is not here (yet): loading, or why it could not be read. Pages call it
 * as `if (!query.isSuccess) return <RecordPageState …/>`, after which the record is at hand.
 */
export function RecordPageState({
  query,
  thing,
  title,
}: {
  query: { isPending: boolean; error: unknown; refetch: () => unknown };
  thing: string;
  title: string;
}) {
  return (
    <Page title={title}>
      {query.isPending ? <Loading label={`Loading the ${thing}…`} /> : <ErrorState error={query.error} thing={thing} onRetry={() => void query.refetch()} />}
    </Page>
  );
}

/** The server's reason for a field, in words (the codes are the API's `fields` values). */
export function reasonText(reason: string | undefined): string | undefined {
  if (!reason) return undefined;
  const words: Record<string, string> = {
    required: 'Required.',
    too_short: 'Too short.',
    too_long: 'Too long.',
    invalid_date: 'Not a valid date.',
    invalid_format: 'Not in the expected format.',
    not_in_org: 'Belongs to another organization.',
    not_allowed: 'Not allowed here.',
    unknown_field: 'Not accepted.',
  };
  return words[reason] ?? `Rejected by the server (${reason}).`;
}

/** The error of one field from a failed write: `fields[name]` or any `name.…` entry. */
export function fieldError(error: unknown, name: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const fields = error.fields;
  const key = Object.keys(fields).find((k) => k === name || k.startsWith(`${name}.`) || k === `body.${name}`);
  return key ? reasonText(fields[key]) : undefined;
}

/** A failed write's message for the whole form (field errors are shown beside their fields). */
export function FormError({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof ApiError) {
    if (error.status === 404) return <Alert tone="warning">This record does not exist any more: it was deleted meanwhile. Nothing was saved.</Alert>;
    return <Alert>{error.message}</Alert>;
  }
  return <Alert>The service could not be reached; nothing was saved.</Alert>;
}
