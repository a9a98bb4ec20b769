// The actor: who is calling (tenant, user, role, organizations), resolved from the credential.
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';
import type { Lang } from './i18n.ts';

export type UserRole = 'admin' | 'manager' | 'driver' | 'customer';

export interface Actor {
  tenantId: string;
  userId: string;
  role: UserRole;
  organizationIds: string[];
  credentialId: string;
  /** The credential's id when it is an API key (null for a sign-in session): events record which key acted (decision 0106). */
  apiKeyId: string | null;
  /** Tenant extensions and settings travel with the actor: checked on many requests. */
  extensions: string[];
  settings: { enforce_sunsets: boolean };
  lang: Lang;
}

export const isAdmin = (actor: Actor): boolean => actor.role === 'admin';

/** The actor of an authenticated route (every route but `public`/`operator` ones). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError(401, 'unauthenticated', { key: 'error.unauthenticated' });
  return request.actor;
}
