// The recipient templates' routes under /api/admin (docs/tracking.md "Templates", decision 1109): authenticated, the
// tracking permission table decides (admins write; managers read and preview).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.ts';
import { actorOf } from '../../http/actor.ts';
import { bodyOptional } from '../../http/schemas.ts';
import { PreviewBody, PreviewEnvelope, RecipientTemplateEnvelope, RecipientTemplateList, TemplateBody, TemplateParams } from './schemas.ts';
import { getRecipientTemplate, listRecipientTemplates, previewRecipientTemplate, putRecipientTemplate, resetRecipientTemplate } from './templates.ts';

const tags = ['tracking'];
const path = '/api/admin/recipient_templates/:moment/:locale';

export const templateRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/admin/recipient_templates',
      { schema: { tags, operationId: 'listRecipientTemplates', summary: "The recipient e-mails' templates: every moment in en and de, the tenant's own or the default", response: { 200: RecipientTemplateList } } },
      async (request) => ({ recipient_templates: await listRecipientTemplates(deps, actorOf(request)), meta: { next_cursor: null, has_more: false } }),
    );
    app.get(
      path,
      { schema: { tags, operationId: 'getRecipientTemplate', summary: "One moment's template in one language", params: TemplateParams, response: { 200: RecipientTemplateEnvelope } } },
      async (request) => ({ recipient_template: await getRecipientTemplate(deps, actorOf(request), request.params) }),
    );
    app.put(
      path,
      {
        schema: { tags, operationId: 'putRecipientTemplate', summary: "Save the tenant's own subject and body for a moment and language", params: TemplateParams, body: TemplateBody, response: { 200: RecipientTemplateEnvelope } },
      },
      async (request) => ({ recipient_template: await putRecipientTemplate(deps, actorOf(request), request.params, request.body.recipient_template) }),
    );
    app.delete(
      path,
      { schema: { tags, operationId: 'resetRecipientTemplate', summary: "Back to Tourbook's default text (answers the default)", params: TemplateParams, response: { 200: RecipientTemplateEnvelope } } },
      async (request) => ({ recipient_template: await resetRecipientTemplate(deps, actorOf(request), request.params) }),
    );
    app.post(
      `${path}/preview`,
      {
        schema: {
          tags,
          operationId: 'previewRecipientTemplate',
          summary: 'Render the saved template, or a draft, with sample facts (no e-mail is sent)',
          params: TemplateParams,
          body: PreviewBody,
          response: { 200: PreviewEnvelope },
        },
        preValidation: bodyOptional,
      },
      async (request) => ({ preview: await previewRecipientTemplate(deps, actorOf(request), request.params, request.body.recipient_template) }),
    );
  };
