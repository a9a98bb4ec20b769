// Server state lives in TanStack Query's cache (the API is the state). Answers are not retried (a 4xx will not
// change by asking again); lost connections are, with backoff, and queries refetch when the connection returns.
import { QueryClient } from '@tanstack/react-query';
import { connection } from './connection.ts';
import { ConnectionError } from './problem.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      retry: (failures, error) => error instanceof ConnectionError && failures < 30,
      retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 15_000),
      refetchOnWindowFocus: true,
    },
    mutations: { retry: false },
  },
});

// When the service answers again, what is on screen is fetched again at once instead of at the next retry.
connection.subscribe(() => {
  if (connection.isOnline()) void queryClient.refetchQueries({ type: 'active' });
});
