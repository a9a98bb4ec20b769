// Webhook endpoints (admins): the list, and a new endpoint with its URL and event types whose signing secret is
// shown once (api-guide "Subscriptions").
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { SUBSCRIBABLE_EVENT_TYPES } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useEventLabel } from '../../../i18n/event-types.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { Badge, Button, Dialog, ErrorBanner, errorsAt, Loading, Pager, TextField, useCursorPages } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { Checkboxes, SecretOnce } from './parts.tsx';
import { useCreateWebhook, useWebhooks, type EventType } from './queries.ts';

function NewWebhook({ onClose }: { onClose: () => void }) {
  const t = useT(messages);
  const tc = useT(common);
  const te = useEventLabel();
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [all, setAll] = useState(true);
  const [events, setEvents] = useState<EventType[]>([]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ url: url.trim(), events: all ? ['*'] : events, ...(description.trim() ? { description: description.trim() } : {}) });
  };
  const done = () => {
    create.reset();
    onClose();
  };
  // The form's dialog gives way to the secret's: one modal at a time, and closing the form never drops the secret.
  if (create.data) return <SecretOnce title={t('webhook_secret_for', { url: create.data.webhook.url })} label={t('webhook_secret')} secret={create.data.webhook.secret} onDone={done} />;
  return (
    <Dialog open onClose={onClose} title={t('new_webhook')}>
      <form className="stack" onSubmit={submit}>
        <ErrorBanner error={create.error} shownPointers={['/webhook/url', '/webhook/events', '/webhook/description']} />
        <TextField label={t('url')} hint={t('url_hint')} type="url" required value={url} onChange={(e) => setUrl(e.target.value)} errors={errorsAt(create.error, '/webhook/url')} />
        <TextField label={t('description')} value={description} onChange={(e) => setDescription(e.target.value)} errors={errorsAt(create.error, '/webhook/description')} />
        <div className="field">
          <label className="row">
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> {t('all_events')}
          </label>
        </div>
        {!all ? <Checkboxes legend={t('events')} options={SUBSCRIBABLE_EVENT_TYPES.map((type) => ({ value: type, label: `${te(type)} (${type})` }))} value={events} onChange={setEvents} errors={errorsAt(create.error, '/webhook/events')} /> : null}
        <div className="row">
          <Button type="submit" variant="primary" busy={create.isPending}>
            {t('create')}
          </Button>
          <Button onClick={onClose}>{tc('cancel')}</Button>
        </div>
      </form>
    </Dialog>
  );
}

export function WebhooksSection() {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const paging = useCursorPages();
  const webhooks = useWebhooks(paging.cursor);
  const [creating, setCreating] = useState(false);
  return (
    <section className="stack" aria-labelledby="settings-section">
      <div className="page-head">
        <h2 id="settings-section">{t('webhooks')}</h2>
        <Button variant="primary" onClick={() => setCreating(true)}>
          {t('new_webhook')}
        </Button>
      </div>
      {creating ? <NewWebhook onClose={() => setCreating(false)} /> : null}
      {webhooks.isError ? <ErrorBanner error={webhooks.error} /> : null}
      {webhooks.isPending ? <Loading label={tc('loading')} /> : null}
      {webhooks.data?.webhooks.length === 0 ? <p className="card">{t('empty')}</p> : null}
      {webhooks.data?.webhooks.length ? (
        <div className="table-wrap">
          <table className="data">
            <caption className="visually-hidden">{t('webhooks')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('url')}</th>
                <th scope="col">{t('events')}</th>
                <th scope="col">{t('status')}</th>
                <th scope="col" className="hide-narrow">{t('created')}</th>
              </tr>
            </thead>
            <tbody>
              {webhooks.data.webhooks.map((webhook) => (
                <tr key={webhook.id}>
                  <td className="break">
                    <Link href={`/webhooks/${webhook.id}`} aria-label={t('open_webhook', { url: webhook.url })}>
                      {webhook.url}
                    </Link>
                    {webhook.description ? <div className="muted">{webhook.description}</div> : null}
                  </td>
                  <td>{webhook.events.includes('*') ? t('all_events') : t('event_count', { n: webhook.events.length })}</td>
                  <td>{webhook.active ? <Badge tone="ok">{t('active')}</Badge> : <Badge tone="warn">{t('inactive')}</Badge>}</td>
                  <td className="hide-narrow">{format.dateTime(webhook.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager label={t('webhooks')} pages={paging} meta={webhooks.data?.meta} />
    </section>
  );
}
