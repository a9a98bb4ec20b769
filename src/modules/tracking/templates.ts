// The recipient templates (decision 1109): a tenant's own subject and body per moment and language, over Tourbook's
// defaults; listed, saved, reset, and previewed with sample facts (no e-mail is sent).
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { invalidFields, notFound } from '../../http/errors.ts';
import { isoOrNull } from '../../shared/time.ts';
import { smsEncoding, type SmsEncoding } from '../../sms/index.ts';
import { baseUrl } from './notify.ts';
import { trackingPermissions } from './permissions.ts';
import { DEFAULT_TEMPLATES, PLACEHOLDERS_OF, recipientMailText, recipientMessage, templateProblems, type RecipientTemplate } from './recipient-mail.ts';
import * as repo from './recipient-repository.ts';
import { recipientSmsText } from './recipient-sms.ts';
import type { TemplateInput } from './schemas.ts';
import { RECIPIENT_LOCALES, RECIPIENT_MOMENTS, type RecipientLocale, type RecipientMoment } from './tables.ts';

interface TemplateKey {
  moment: RecipientMoment;
  locale: RecipientLocale;
}

/** The path's moment and language; anything else is a template that does not exist (404, decision 0151). */
function keyOf(params: { moment: string; locale: string }): TemplateKey {
  const moment = RECIPIENT_MOMENTS.find((m) => m === params.moment);
  const locale = RECIPIENT_LOCALES.find((l) => l === params.locale);
  if (!moment || !locale) throw notFound('recipient template');
  return { moment, locale };
}

const toView = (key: TemplateKey, row: repo.TemplateRow | null) => {
  const template = row ?? DEFAULT_TEMPLATES[key.locale][key.moment];
  return {
    moment: key.moment,
    locale: key.locale,
    subject: template.subject,
    body: template.body,
    placeholders: [...PLACEHOLDERS_OF[key.moment]],
    customized: row !== null,
    updated_at: isoOrNull(row?.updatedAt ?? null),
  };
};
export type RecipientTemplateView = ReturnType<typeof toView>;

/** Every moment in every language, the tenant's own text where it has one (a fixed list: no pages). */
export async function listRecipientTemplates(deps: Deps, actor: Actor): Promise<RecipientTemplateView[]> {
  trackingPermissions.require(actor, 'read_recipient_templates');
  const own = new Map((await repo.templatesOf(deps.db, actor.tenantId)).map((r) => [`${r.moment}|${r.locale}`, r]));
  return RECIPIENT_MOMENTS.flatMap((moment) => RECIPIENT_LOCALES.map((locale) => toView({ moment, locale }, own.get(`${moment}|${locale}`) ?? null)));
}

export async function getRecipientTemplate(deps: Deps, actor: Actor, params: { moment: string; locale: string }): Promise<RecipientTemplateView> {
  trackingPermissions.require(actor, 'read_recipient_templates');
  const key = keyOf(params);
  return toView(key, await repo.findTemplate(deps.db, actor.tenantId, key.moment, key.locale));
}

/** 422 with a pointer per problem: unknown placeholders, a subject on two lines, a body without the tracking link. */
function checkTemplate(moment: RecipientMoment, template: RecipientTemplate): void {
  const problems = templateProblems(moment, template);
  if (problems.length) throw invalidFields(problems.map((p) => ({ pointer: `/recipient_template/${p.field}`, code: p.code, detail: p.detail })));
}

export async function putRecipientTemplate(deps: Deps, actor: Actor, params: { moment: string; locale: string }, input: TemplateInput): Promise<RecipientTemplateView> {
  trackingPermissions.require(actor, 'manage_recipient_templates');
  const key = keyOf(params);
  checkTemplate(key.moment, input);
  const row: repo.TemplateRow = { tenantId: actor.tenantId, ...key, subject: input.subject, body: input.body, updatedAt: deps.clock.now() };
  await repo.upsertTemplate(deps.db, row);
  return toView(key, row);
}

/** Back to Tourbook's text; idempotent (a tenant without its own text gets the default back as well). */
export async function resetRecipientTemplate(deps: Deps, actor: Actor, params: { moment: string; locale: string }): Promise<RecipientTemplateView> {
  trackingPermissions.require(actor, 'manage_recipient_templates');
  const key = keyOf(params);
  await repo.deleteTemplate(deps.db, actor.tenantId, key.moment, key.locale);
  return toView(key, null);
}

const SAMPLE_NAMES: Record<RecipientLocale, string> = { en: 'Ada Lovelace', de: 'Erika Mustermann' };

/**
 * The message a template makes with sample facts — a name, an ETA eight minutes from now, a two-hour window, a
 * next attempt tomorrow, a signed proof with a photo — in UTC, with a sample tracking and unsubscribe link; and the SMS
 * it makes with its coding and segments (decision 1765). A draft is checked as a save would check it.
 */
export async function previewRecipientTemplate(
  deps: Deps,
  actor: Actor,
  params: { moment: string; locale: string },
  draft: TemplateInput | undefined,
): Promise<{ subject: string; text: string; email_text: string; sms: { text: string } & Pick<SmsEncoding, 'coding' | 'segments'> }> {
  trackingPermissions.require(actor, 'read_recipient_templates');
  const key = keyOf(params);
  if (draft) checkTemplate(key.moment, draft);
  const template = draft ?? (await repo.findTemplate(deps.db, actor.tenantId, key.moment, key.locale)) ?? DEFAULT_TEMPLATES[key.locale][key.moment];
  const now = deps.clock.now();
  const hour = Math.ceil(now.getTime() / 3_600_000) * 3_600_000;
  const at = (ms: number) => new Date(ms);
  const base = baseUrl(deps.config);
  const message = recipientMessage(template, {
    lang: key.locale,
    name: SAMPLE_NAMES[key.locale],
    eta: at(now.getTime() + 8 * 60_000),
    timeWindow: { startsAt: at(hour), endsAt: at(hour + 2 * 3_600_000) },
    nextAttempt: { startsAt: at(hour + 24 * 3_600_000), endsAt: at(hour + 26 * 3_600_000) },
    proof: { recipientName: SAMPLE_NAMES[key.locale], photo: true },
    timeZone: 'UTC',
    trackingUrl: `${base}/track/sample`,
  });
  const sms = recipientSmsText(key.locale, message.text);
  const { coding, segments } = smsEncoding(sms);
  return { ...message, email_text: recipientMailText(key.locale, message.text, `${base}/unsubscribe/sample`), sms: { text: sms, coding, segments } };
}
