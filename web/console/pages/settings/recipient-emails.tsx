// Recipient e-mails: each moment's subject and text per language, Tourbook's default or the tenant's own, with a live
// preview the API renders from sample facts (docs/tracking.md "Templates"). Admins edit and reset; managers read and
// see the preview (decision 1010: nothing is offered that the role may not do).
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import type { User } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useLang, useT } from '../../../i18n/index.tsx';
import { Badge, Button, ErrorBanner, Loading, SelectField, TextArea, TextField, errorsAt } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { usePreview, useRecipientTemplates, useResetTemplate, useSaveTemplate, type RecipientTemplate, type TemplateDraft } from './queries.ts';

type Moment = RecipientTemplate['moment'];
type Locale = RecipientTemplate['locale'];
export const MOMENTS: Moment[] = ['dispatched', 'on_its_way', 'approaching', 'delivered', 'failed'];
const LOCALES: Locale[] = ['en', 'de'];
const POINTERS = ['/recipient_template/subject', '/recipient_template/body'];

/** The text after it stayed the same for `ms`: the preview is asked for once the typing pauses. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function TemplateEditor({ template, canEdit }: { template: RecipientTemplate; canEdit: boolean }) {
  const t = useT(messages);
  const tc = useT(common);
  const previewId = useId();
  const [subject, setSubject] = useState(template.subject);
  const [body, setBody] = useState(template.body);
  const [done, setDone] = useState<'saved' | 'reset' | null>(null);
  const settled = useSettled(JSON.stringify({ subject, body }), 300);
  const draft = useMemo(() => JSON.parse(settled) as TemplateDraft, [settled]);
  const preview = usePreview(template, draft);
  const save = useSaveTemplate();
  const reset = useResetTemplate();
  const at = (field: 'subject' | 'body') => errorsAt(save.error, `/recipient_template/${field}`) ?? errorsAt(preview.error, `/recipient_template/${field}`);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    save.mutate({ moment: template.moment, locale: template.locale, template: { subject, body } }, { onSuccess: () => setDone('saved') });
  };
  const list = template.placeholders.map((p) => `{{${p}}}`).join(', ');
  return (
    <div className="template-editor">
      <form className="stack" onSubmit={submit} aria-label={t(`moment_${template.moment}`)}>
        <p>
          <Badge tone={template.customized ? 'info' : 'neutral'}>{template.customized ? t('customized') : t('default_text')}</Badge>
        </p>
        <ErrorBanner error={save.error ?? reset.error} shownPointers={POINTERS} />
        <TextField label={t('subject')} required maxLength={200} readOnly={!canEdit} value={subject} onChange={(e) => setSubject(e.target.value)} errors={at('subject')} />
        <TextArea
          label={t('body')}
          hint={t('placeholders_hint', { list, link: '{{tracking_url}}' })}
          required
          rows={10}
          maxLength={5000}
          readOnly={!canEdit}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          errors={at('body')}
        />
        {canEdit ? (
          <div className="row">
            <Button type="submit" variant="primary" busy={save.isPending}>
              {tc('save')}
            </Button>
            {template.customized ? (
              <Button
                busy={reset.isPending}
                onClick={() => {
                  setDone(null);
                  reset.mutate(
                    { moment: template.moment, locale: template.locale },
                    {
                      onSuccess: ({ recipient_template: fresh }) => {
                        setSubject(fresh.subject);
                        setBody(fresh.body);
                        setDone('reset');
                      },
                    },
                  );
                }}
              >
                {t('reset_default')}
              </Button>
            ) : null}
          </div>
        ) : null}
        <p role="status" className="muted">
          {done === 'saved' ? t('template_saved') : done === 'reset' ? t('template_reset') : ''}
        </p>
      </form>
      <section className="card stack" aria-labelledby={previewId}>
        <h3 id={previewId}>{t('preview')}</h3>
        <p className="muted">{t('preview_note')}</p>
        {preview.isError ? <p className="error">{t('preview_invalid')}</p> : null}
        {preview.data && !preview.isError ? (
          <div aria-live="polite" className="stack">
            <p>
              <strong>{t('subject')}:</strong> <span data-preview="subject">{preview.data.subject}</span>
            </p>
            <pre className="preview-text" data-preview="text">
              {preview.data.email_text}
            </pre>
          </div>
        ) : preview.isPending ? (
          <Loading label={tc('loading')} />
        ) : null}
      </section>
    </div>
  );
}

export function RecipientEmailsSection({ user }: { user: User }) {
  const t = useT(messages);
  const tc = useT(common);
  const templates = useRecipientTemplates();
  const [moment, setMoment] = useState<Moment>('dispatched');
  // The page's language first: a German dispatcher most likely writes to German recipients.
  const { lang } = useLang();
  const [locale, setLocale] = useState<Locale>(lang);
  const canEdit = user.role === 'admin';
  const current = templates.data?.find((x) => x.moment === moment && x.locale === locale);
  return (
    <section className="stack" aria-labelledby="settings-section">
      <div className="page-head">
        <h2 id="settings-section">{t('recipient_emails')}</h2>
      </div>
      <p className="muted">{t('recipient_emails_intro')}</p>
      {!canEdit ? <p className="card">{t('read_only')}</p> : null}
      <ErrorBanner error={templates.error} />
      {templates.isPending ? <Loading label={tc('loading')} /> : null}
      <div className="row">
        <SelectField label={t('moment')} value={moment} onChange={(e) => setMoment(e.target.value as Moment)}>
          {MOMENTS.map((m) => (
            <option key={m} value={m}>
              {t(`moment_${m}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('language')} value={locale} onChange={(e) => setLocale(e.target.value as Locale)}>
          {LOCALES.map((l) => (
            <option key={l} value={l}>
              {t(`lang_${l}`)}
            </option>
          ))}
        </SelectField>
      </div>
      {/* A new editor per moment and language: it starts from what the API holds for them. */}
      {current ? <TemplateEditor key={`${current.moment}|${current.locale}`} template={current} canEdit={canEdit} /> : null}
    </section>
  );
}
