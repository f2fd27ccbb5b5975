import { useId } from 'react';
import { CopyButton } from './copy-button';

/** A secret shown once: a read-only field (selectable, named by its label) with a copy button. */
export function SecretField({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className="secret mono" readOnly value={value} onFocus={(e) => e.target.select()} />
      <div>
        <CopyButton text={value} label={copyLabel} />
      </div>
    </div>
  );
}
