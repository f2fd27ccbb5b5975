import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

interface FieldShell {
  label: string;
  /** The error to show beside the field: the client's check or the server's `fields` reason. */
  error?: string | null;
  description?: ReactNode;
}

function describedBy(ids: (string | false | null | undefined)[]): string | undefined {
  const list = ids.filter(Boolean).join(' ');
  return list || undefined;
}

/** A labelled input with its description and error wired by aria-describedby. */
export function TextField({ label, error, description, id, ...input }: FieldShell & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const inputId = id ?? auto;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy([description ? `${inputId}-desc` : null, error ? `${inputId}-err` : null])}
        {...input}
      />
      {description ? (
        <p className="field-desc" id={`${inputId}-desc`}>
          {description}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${inputId}-err`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function SelectField({ label, error, description, id, children, ...select }: FieldShell & SelectHTMLAttributes<HTMLSelectElement>) {
  const auto = useId();
  const selectId = id ?? auto;
  return (
    <div className="field">
      <label htmlFor={selectId}>{label}</label>
      <select
        id={selectId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy([description ? `${selectId}-desc` : null, error ? `${selectId}-err` : null])}
        {...select}
      >
        {children}
      </select>
      {description ? (
        <p className="field-desc" id={`${selectId}-desc`}>
          {description}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${selectId}-err`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A group of checkboxes with one legend and one error (for example a scope or event-type picker). */
export function CheckboxGroup({
  legend,
  options,
  value,
  onChange,
  error,
  description,
}: {
  legend: string;
  options: { value: string; label: ReactNode }[];
  value: string[];
  onChange: (next: string[]) => void;
  error?: string | null;
  description?: ReactNode;
}) {
  const id = useId();
  return (
    <fieldset className="field checkbox-group" aria-describedby={describedBy([description ? `${id}-desc` : null, error ? `${id}-err` : null])}>
      <legend>{legend}</legend>
      {description ? (
        <p className="field-desc" id={`${id}-desc`}>
          {description}
        </p>
      ) : null}
      <div className="checkbox-grid">
        {options.map((o) => (
          <label key={o.value} className="checkbox">
            <input
              type="checkbox"
              checked={value.includes(o.value)}
              onChange={(e) => onChange(e.target.checked ? [...value, o.value] : value.filter((v) => v !== o.value))}
            />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p className="field-error" id={`${id}-err`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * The choices of a select: first an empty choice named `none` (e.g. "Any") when given, then one
 * per value, named by `labels` or shown as it is.
 */
export function Options<T extends string | number>({ values, labels, none }: { values: readonly T[]; labels?: Readonly<Record<T, string>>; none?: string }) {
  return (
    <>
      {none === undefined ? null : <option value="">{none}</option>}
      {values.map((v) => (
        <option key={v} value={v}>
          {labels ? labels[v] : v}
        </option>
      ))}
    </>
  );
}
