import type { ReactNode } from 'react';

/**
 * A page's filters, in one form that never reloads the page: submitting it (Enter in a text
 * field, or its Search button) runs `onSubmit`; filters that apply as they change need none.
 */
export function FilterForm({ label, onSubmit, children }: { label?: string; onSubmit?: () => void; children: ReactNode }) {
  return (
    <form
      className="filters"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit?.();
      }}
    >
      {children}
    </form>
  );
}
