import type { ReactNode } from 'react';

/** One fact of a record page's `<dl className="facts">`: its name, then its value. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
