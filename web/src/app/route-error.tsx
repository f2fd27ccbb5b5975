import type { ErrorComponentProps } from '@tanstack/react-router';
import { Alert } from '../components/alert';
import { ApiError } from '../lib/api';

/** What a page shows when its data cannot be loaded: the server's message and request id. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const requestId = error instanceof ApiError ? error.body?.request_id : undefined;
  return (
    <div className="page">
      <Alert>
        <p>
          {error instanceof ApiError && error.status === 404 ? 'Not found: ' : ''}
          {(error as Error).message}
        </p>
        {requestId ? <p className="muted">Request id: {requestId}</p> : null}
      </Alert>
      <button type="button" className="btn btn-secondary" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
