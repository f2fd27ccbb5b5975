import type { ReactNode } from 'react';

/** A message announced to screen readers: errors as alerts, other news as status. */
export function Alert({ tone = 'error', children }: { tone?: 'error' | 'success' | 'warning' | 'info'; children: ReactNode }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
