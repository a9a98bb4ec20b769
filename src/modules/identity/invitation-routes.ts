// Invitations (decision 1602): an admin e-mails a user a one-time link; the link's page sets the password with it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf } from '../../http/actor.ts';
import type { Deps } from '../../deps.ts';
import { pickLang } from '../../http/i18n.ts';
import { withExample } from '../../http/openapi-components.ts';
import { IdParams, Timestamp, Uuid } from '../../http/schemas.ts';
import { acceptInvitation, inviteUser } from './operations/invitations.ts';

const strict = { additionalProperties: false };
const Invitation = Type.Object({ user_id: Uuid, email: Type.String(), expires_at: Timestamp });
const AcceptBody = withExample(
  Type.Object(
    {
      invitation: Type.Object(
        {
          token: Type.String({ minLength: 1, maxLength: 200, description: 'The token from the link (what follows `#token=`).' }),
          password: Type.String({ minLength: 8, maxLength: 256 }),
        },
        strict,
      ),
    },
    strict,
  ),
  { invitation: { token: 'tbl_4fQ9xR2mV7kL1pZ8sT3wY6bN0cH5jD2a', password: 'correct horse battery' } },
);
const Accepted = withExample(
  Type.Object({ invitation: Type.Object({ user_id: Uuid, email: Type.String(), tenant_id: Type.String({ format: 'uuid', description: 'For signing in when the e-mail and password match users of several tenants.' }) }) }),
  { invitation: { user_id: '01890a5d-ac96-774b-bcce-b302099a8057', email: 'ada@example.com', tenant_id: '01890a5d-ac96-774b-bcce-b302099a8058' } },
);

export const invitationRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/users/:id/invitation',
      {
        schema: {
          tags: ['users'],
          operationId: 'inviteUser',
          summary: 'E-mail a user a one-time link to set its password',
          description: 'Admins. The link works once and for 7 days; a new invitation replaces the earlier one. The e-mail is in the language of the request.',
          params: IdParams,
          response: { 201: withExample(Type.Object({ invitation: Invitation }), { invitation: { user_id: '01890a5d-ac96-774b-bcce-b302099a8057', email: 'ada@example.com', expires_at: '2026-12-09T08:00:00.000Z' } }) },
        },
      },
      async (request, reply) => reply.status(201).send({ invitation: await inviteUser(deps, actorOf(request), request.params.id, pickLang(request.headers['accept-language'])) }),
    );
    app.post(
      '/api/invitations/accept',
      {
        config: { auth: 'public' },
        schema: {
          tags: ['users'],
          operationId: 'acceptInvitation',
          summary: "Set the password with an invitation's (or the first sign-in's) one-time link",
          description: 'No credential: the token is one. Unknown → 404; used → 410 `invitation_used`; expired → 410 `invitation_expired`. Then sign in with the e-mail and the new password.',
          security: [],
          body: AcceptBody,
          response: { 200: Accepted },
        },
      },
      async (request) => ({ invitation: await acceptInvitation(deps, request.body.invitation) }),
    );
  };
