// RFC 8058 one-click unsubscribe for recipient e-mails (decision 1104): the mail client POSTs
// `List-Unsubscribe=One-Click` to the List-Unsubscribe URL; a person opening the link gets a page with one button
// that posts the same (a GET never unsubscribes: link scanners open every URL of a message).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { pickLang, type Lang } from '../../http/i18n.ts';
import { contentSecurityPolicy, pageHeaders } from '../../pages/security-headers.ts';
import { unsubscribe, unsubscribeTokenExists } from './notify.ts';
import { addressRateLimit } from './rate-limit.ts';

const TOKEN = /^[A-Za-z0-9_-]{1,200}$/;

const WORDS = {
  en: {
    title: 'Delivery e-mails',
    ask: 'Stop e-mails about deliveries to this address?',
    button: 'Unsubscribe',
    done: 'Done: this address gets no more delivery e-mails from this sender.',
    unknown: 'This link is not valid.',
  },
  de: {
    title: 'Liefer-E-Mails',
    ask: 'Keine E-Mails zu Lieferungen mehr an diese Adresse?',
    button: 'Abmelden',
    done: 'Erledigt: diese Adresse erhält von diesem Absender keine Liefer-E-Mails mehr.',
    unknown: 'Dieser Link ist nicht gültig.',
  },
} as const;

const page = (lang: Lang, body: string): string =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer"><title>${WORDS[lang].title}</title></head>` +
  `<body><main><h1>${WORDS[lang].title}</h1>${body}</main></body></html>`;

function htmlHeaders(reply: FastifyReply, lang: Lang): void {
  void reply.headers({
    ...pageHeaders({ csp: contentSecurityPolicy(), referrer: 'no-referrer' }),
    'x-robots-tag': 'noindex, nofollow',
    'cache-control': 'no-store',
    'content-language': lang,
  });
  reply.type('text/html; charset=utf-8');
}

export const unsubscribeRoutes =
  (deps: Deps): FastifyPluginAsync =>
  async (app) => {
    const limited = addressRateLimit(deps);
    // RFC 8058 names both form encodings; the body's only content is `List-Unsubscribe=One-Click`, which the token in
    // the URL makes redundant, so it is taken as text and not interpreted.
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
      app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => done(null, body));
    }
    const schema = { hide: true, params: { type: 'object', properties: { token: { type: 'string' } }, required: ['token'] } } as const;

    app.get('/unsubscribe/:token', { config: { auth: 'public' }, onRequest: [limited], schema }, async (request: FastifyRequest, reply) => {
      const { token } = request.params as { token: string };
      const lang = pickLang(request.headers['accept-language']);
      htmlHeaders(reply, lang);
      if (!TOKEN.test(token) || !(await unsubscribeTokenExists(deps, token))) return reply.status(404).send(page(lang, `<p>${WORDS[lang].unknown}</p>`));
      const form =
        `<p>${WORDS[lang].ask}</p><form method="post" action="/unsubscribe/${token}">` +
        `<input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${WORDS[lang].button}</button></form>`;
      return reply.send(page(lang, form));
    });

    app.post(
      '/unsubscribe/:token',
      { config: { auth: 'public' }, onRequest: [limited], schema: { ...schema, body: { type: 'string', maxLength: 4096 } } },
      async (request: FastifyRequest, reply) => {
        const { token } = request.params as { token: string };
        if (!TOKEN.test(token) || !(await unsubscribe(deps, token))) throw notFound('unsubscribe link');
        const lang = pickLang(request.headers['accept-language']);
        htmlHeaders(reply, lang);
        return reply.send(page(lang, `<p>${WORDS[lang].done}</p>`));
      },
    );
  };
