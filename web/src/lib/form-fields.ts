import { useState } from 'react';

/**
 * A form's text values in one state. `field(name)` gives a TextField or SelectField its value,
 * its change handler and its error (`errorOf(name)`: the form's own check or the server's reason);
 * `reset()` puts the first values back.
 */
export function useFormFields<T extends { [K in keyof T]: string }>(initial: T | (() => T), errorOf: (name: keyof T & string) => string | null | undefined) {
  const [values, setValues] = useState(initial);
  const field = (name: keyof T & string) => ({
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
    error: errorOf(name),
  });
  const reset = () => setValues(initial);
  return { values, setValues, field, reset };
}
