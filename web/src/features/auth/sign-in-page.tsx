import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { api, ApiError, setCsrfToken, unwrap } from '../../lib/api';

export function SignInPage() {
  const search = useSearch({ from: '/sign-in' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string; form?: string }>({});
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local: typeof errors = {};
    if (!/^[^@\s]+@[^@\s]+$/.test(email.trim())) local.email = 'Enter your email address.';
    if (password === '') local.password = 'Enter your password.';
    setErrors(local);
    if (local.email || local.password) return;
    setPending(true);
    try {
      const session = await unwrap(api.POST('/api/v1/session', { body: { email: email.trim(), password } }));
      setCsrfToken(session.csrf_token);
      queryClient.setQueryData(['session'], session);
      await navigate({ to: search.redirect ?? '/deals' });
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
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
          required
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          required
        />
        <Button type="submit" variant="primary" disabled={pending}>
          Sign in
        </Button>
      </form>
    </main>
  );
}
