import { useId, type TextareaHTMLAttributes } from 'react';

/** A labelled multi-line text field with its error wired by aria-describedby (as TextField does). */
export function TextAreaField({ label, error, id, ...area }: { label: string; error?: string | null } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const auto = useId();
  const areaId = id ?? auto;
  return (
    <div className="field">
      <label htmlFor={areaId}>{label}</label>
      <textarea id={areaId} aria-invalid={error ? true : undefined} aria-describedby={error ? `${areaId}-err` : undefined} rows={3} {...area} />
      {error ? (
        <p className="field-error" id={`${areaId}-err`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
