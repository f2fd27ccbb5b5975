import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { ApiError, setCsrfToken, setSignedOutHandler } from '../lib/api';
import { createAppRouter } from './router';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will not change by asking again; network trouble and 5xx may.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const router = createAppRouter(queryClient);

// A session that ends while the console is open (expiry, sign-out elsewhere, deactivation) leads to sign-in.
setSignedOutHandler(() => {
  setCsrfToken(null);
  queryClient.setQueryData(['session'], null);
  void router.navigate({ to: '/sign-in', search: { redirect: router.state.location.href } });
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
