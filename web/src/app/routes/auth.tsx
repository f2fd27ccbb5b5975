import { createRoute, redirect } from '@tanstack/react-router';
import { SignInPage } from '../../features/auth/sign-in-page';
import { sessionQuery, START_PAGE } from '../../lib/session';
import { rootRoute, signedInRoute } from './root';

export interface SignInSearch {
  redirect?: string;
}

export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'sign-in',
  validateSearch: (search: Record<string, unknown>): SignInSearch =>
    typeof search.redirect === 'string' && search.redirect.startsWith('/') ? { redirect: search.redirect } : {},
  beforeLoad: async ({ context }) => {
    if (await context.queryClient.ensureQueryData(sessionQuery)) throw redirect({ to: START_PAGE });
  },
  // Eager: it is the first page a signed-out visitor sees.
  component: SignInPage,
});

/** `/` signed in: the first page of the navigation. */
export const homeRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: START_PAGE });
  },
});
