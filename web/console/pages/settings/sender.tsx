// The sender: who the tenant's recipients are told by — the name, colour and logo of the tracking page and e-mails,
// the e-mails' From and Reply-To, the SMS sender id (docs/tracking.md "Sender", decision 1784). Admins only.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { common } from '../../../i18n/common.ts';
import { useT } from '../../../i18n/index.tsx';
import { Button, ErrorBanner, Loading, TextField, errorsAt } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { useSaveLogo, useSaveSender, useSender, type Sender, type SenderDraft } from './queries.ts';

const FIELDS = ['name', 'color', 'reply_to', 'email_from', 'sms_sender_id'] as const;
const POINTERS = FIELDS.map((f) => `/sender/${f}`);
/** The API's limit (256 KiB): said before the upload rather than after it. */
const MAX_LOGO_BYTES = 256 * 1024;

const draftOf = (sender: Sender): Record<(typeof FIELDS)[number], string> => ({
  name: sender.name ?? '',
  color: sender.color ?? '',
  reply_to: sender.reply_to ?? '',
  email_from: sender.email_from ?? '',
  sms_sender_id: sender.sms_sender_id ?? '',
});

/** A file's bytes as base64, what PUT /api/admin/sender/logo takes. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function SenderForm({ sender }: { sender: Sender }) {
  const t = useT(messages);
  const tc = useT(common);
  const [draft, setDraft] = useState(() => draftOf(sender));
  const [done, setDone] = useState<'saved' | 'logo' | null>(null);
  const [tooLarge, setTooLarge] = useState(false);
  const save = useSaveSender();
  const logo = useSaveLogo();
  const set = (field: (typeof FIELDS)[number]) => (e: ChangeEvent<HTMLInputElement>) => setDraft((d) => ({ ...d, [field]: e.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const body = Object.fromEntries(FIELDS.map((f) => [f, draft[f].trim() || null])) as SenderDraft;
    save.mutate(body, { onSuccess: () => setDone('saved') });
  };
  const upload = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    setDone(null);
    setTooLarge(false);
    if (!file) return;
    if (file.size > MAX_LOGO_BYTES) return setTooLarge(true);
    logo.mutate(await base64Of(file), { onSuccess: () => setDone('logo') });
  };
  const at = (field: (typeof FIELDS)[number]) => errorsAt(save.error, `/sender/${field}`);
  return (
    <div className="stack">
      <form className="stack" onSubmit={submit} aria-label={t('sender')}>
        <ErrorBanner error={save.error} shownPointers={POINTERS} />
        <TextField label={t('sender_name')} hint={t('sender_name_hint')} maxLength={100} value={draft.name} onChange={set('name')} errors={at('name')} />
        <TextField label={t('sender_color')} hint={t('sender_color_hint')} pattern="#[0-9A-Fa-f]{6}" placeholder="#0b5fff" value={draft.color} onChange={set('color')} errors={at('color')} />
        <TextField label={t('sender_email_from')} hint={t('sender_email_from_hint')} type="email" value={draft.email_from} onChange={set('email_from')} errors={at('email_from')} />
        <TextField label={t('sender_reply_to')} hint={t('sender_reply_to_hint')} type="email" value={draft.reply_to} onChange={set('reply_to')} errors={at('reply_to')} />
        <TextField label={t('sender_sms_id')} hint={t('sender_sms_id_hint')} maxLength={15} value={draft.sms_sender_id} onChange={set('sms_sender_id')} errors={at('sms_sender_id')} />
        <div className="row">
          <Button type="submit" variant="primary" busy={save.isPending}>
            {tc('save')}
          </Button>
        </div>
      </form>
      <section className="card stack" aria-labelledby="sender-effective">
        <h3 id="sender-effective">{t('sender_effective')}</h3>
        <p data-sender="email">{t('sender_effective_email', { from: sender.effective.email_from })}</p>
        <p data-sender="sms">{sender.effective.sms_from ? t('sender_effective_sms', { from: sender.effective.sms_from }) : t('sender_effective_no_sms')}</p>
      </section>
      <section className="card stack" aria-labelledby="sender-logo">
        <h3 id="sender-logo">{t('sender_logo')}</h3>
        {sender.logo_url ? <img className="sender-logo" src={sender.logo_url} alt={t('sender_logo_alt')} height={40} /> : <p className="muted">{t('sender_no_logo')}</p>}
        <ErrorBanner error={logo.error} />
        {tooLarge ? <p className="error" role="alert">{t('sender_logo_too_large')}</p> : null}
        <div className="field">
          <label htmlFor="sender-logo-file">{t('sender_logo_choose')}</label>
          <input id="sender-logo-file" type="file" accept="image/png,image/jpeg,image/webp" aria-describedby="sender-logo-hint" onChange={(e) => void upload(e)} />
          <p className="hint" id="sender-logo-hint">{t('sender_logo_hint')}</p>
        </div>
        {sender.logo_url ? (
          <div className="row">
            <Button busy={logo.isPending} onClick={() => logo.mutate(null, { onSuccess: () => setDone(null) })}>
              {t('sender_logo_remove')}
            </Button>
          </div>
        ) : null}
      </section>
      <p role="status" className="muted">
        {done === 'saved' ? t('sender_saved') : done === 'logo' ? t('sender_logo_saved') : ''}
      </p>
    </div>
  );
}

export function SenderSection() {
  const t = useT(messages);
  const tc = useT(common);
  const sender = useSender();
  return (
    <section className="stack" aria-labelledby="settings-section">
      <div className="page-head">
        <h2 id="settings-section">{t('sender')}</h2>
      </div>
      <p className="muted">{t('sender_intro')}</p>
      <ErrorBanner error={sender.error} />
      {sender.isPending ? <Loading label={tc('loading')} /> : null}
      {sender.data ? <SenderForm sender={sender.data} /> : null}
    </section>
  );
}
