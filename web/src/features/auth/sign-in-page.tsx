import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouter, useSearch } from '@tanstack/react-router';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { api, ApiError, setCsrfToken, unwrap } from '../../lib/api';
import { useFormFields } from '../../lib/form-fields';
import { START_PAGE } from '../../lib/session';
import { preloadPageCode } from './preload';

export function SignInPage() {
  const search = useSearch({ from: '/sign-in' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<{ email?: string; password?: string; form?: string }>({});
  const { values, field } = useFormFields({ email: '', password: '' }, (f) => errors[f]);
  const { email, password } = values;
  const [pending, setPending] = useState(false);
  const router = useRouter();
  // `/` redirects to the start page: going there directly saves a step, and tells preloading which page comes next.
  const destination = search.redirect && search.redirect !== '/' ? search.redirect : START_PAGE;
  // The next page's code is fetched while the visitor types (see preload.ts).
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => preloadPageCode(router, destination));
    return () => cancel(handle);
  }, [router, destination]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local: typeof errors = {};
    if (!/^[^@\s]+@[^@\s]+$/.test(email.trim())) local.email = 'Enter your email address.';
    if (password === '') local.password = 'Enter your password.';
    setErrors(local);
    if (local.email || local.password) return;
    setPending(true);
    preloadPageCode(router, destination);
    try {
      const session = await unwrap(api.POST('/api/v1/session', { body: { email: email.trim(), password } }));
      setCsrfToken(session.csrf_token);
      queryClient.setQueryData(['session'], session);
      await navigate({ to: destination });
    } catch (err) {
      if (err instanceof ApiError) setErrors({ ...err.fields, form: err.message });
      else setErrors({ form: 'The server could not be reached. Check your connection and try again.' });
    } finally {
      setPending(false);
    }
  }

  return (
    <main className="sign-in" id="main">
      <form className="card sign-in-card" onSubmit={submit} noValidate aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to custops</h1>
        {errors.form ? <Alert>{errors.form}</Alert> : null}
        <TextField label="Email" type="email" name="email" autoComplete="username" {...field('email')} required />
        <TextField label="Password" type="password" name="password" autoComplete="current-password" {...field('password')} required />
        <Button type="submit" variant="primary" disabled={pending}>
          Sign in
        </Button>
      </form>
    </main>
  );
}
