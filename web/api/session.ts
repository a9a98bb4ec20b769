// Who is signed in. The session is an HttpOnly cookie the page never reads (api-guide "Browser sessions"): the page
// asks the service who the caller is, signs in with POST /api/session and out with DELETE /api/session.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Schemas } from '../../clients/typescript/src/index.ts';
import { api, call, whenSignedOut } from './client.ts';
import { isApiError } from './problem.ts';

export type User = Schemas['User'];

const SESSION_KEY = ['session'] as const;

/** The signed-in user, or null when nobody is (a 401 is an answer here, not an error). */
export function useSession() {
  const queryClient = useQueryClient();
  useEffect(() => whenSignedOut(() => queryClient.setQueryData(SESSION_KEY, null)), [queryClient]);
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async (): Promise<User | null> => {
      try {
        return (await call(api.GET('/api/user'))).user;
      } catch (error) {
        if (isApiError(error) && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: Infinity,
  });
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; password: string; tenant_id?: string }) => call(api.POST('/api/session', { body: { user: input } })),
    onSuccess: ({ user }) => {
      // Another user's data must not survive a change of user; the session query itself stays observed.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
      queryClient.setQueryData(SESSION_KEY, user);
    },
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.DELETE('/api/session')),
    onSettled: () => {
      queryClient.setQueryData(SESSION_KEY, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
    },
  });
}
