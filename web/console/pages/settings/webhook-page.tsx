// One webhook endpoint: its settings, rotating its secret (shown once), a test event, pausing or resuming, and the
// delivery log with each delivery's attempts and "Redeliver" (api-guide "Delivery log, redelivery, recovery, test").
import { useState } from 'react';
import { Link } from 'wouter';
import { common } from '../../../i18n/common.ts';
import { useEventLabel } from '../../../i18n/event-types.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { Badge, Button, Dialog, ErrorBanner, Loading, Pager, useCursorPages } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { SecretOnce } from './parts.tsx';
import { useDeliveries, useRedeliver, useRotateSecret, useSendTest, useUpdateWebhook, useWebhook, type Delivery } from './queries.ts';

const DELIVERY_TONES = { pending: 'info', succeeded: 'ok', failed: 'warn', exhausted: 'danger' } as const;

function DeliveryLog({ id }: { id: string }) {
  const t = useT(messages);
  const tc = useT(common);
  const te = useEventLabel();
  const format = useFormat();
  const paging = useCursorPages();
  const deliveries = useDeliveries(id, paging.cursor);
  const redeliver = useRedeliver(id);
  const last = (d: Delivery) => {
    const attempt = d.attempts.at(-1);
    if (!attempt) return '—';
    const words = attempt.status_code !== null ? t('attempt', { code: attempt.status_code, ms: attempt.duration_ms }) : t('attempt_error', { error: attempt.error ?? '', ms: attempt.duration_ms });
    return `${format.dateTime(attempt.at)} · ${words}`;
  };
  return (
    <section className="stack" aria-labelledby="deliveries-title">
      <div className="page-head">
        <h3 id="deliveries-title">{t('deliveries')}</h3>
        <Button small busy={deliveries.isFetching} onClick={() => void deliveries.refetch()}>
          {t('refresh')}
        </Button>
      </div>
      <ErrorBanner error={deliveries.error ?? redeliver.error} />
      {deliveries.isPending ? <Loading label={tc('loading')} /> : null}
      {deliveries.data?.deliveries.length === 0 ? <p className="card">{t('no_deliveries')}</p> : null}
      {deliveries.data?.deliveries.length ? (
        <div className="table-wrap">
          <table className="data">
            <caption className="visually-hidden">{t('deliveries')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('col_event')}</th>
                <th scope="col">{t('col_status')}</th>
                <th scope="col">{t('col_attempts')}</th>
                <th scope="col" className="hide-narrow">{t('col_last')}</th>
                <th scope="col" className="hide-narrow">{t('col_next')}</th>
                <th scope="col">{t('col_actions')}</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.deliveries.map((d) => (
                <tr key={d.id}>
                  <td>
                    {te(d.event_type)} <span className="mono muted">{d.event_type}</span>
                  </td>
                  <td>
                    <Badge tone={DELIVERY_TONES[d.status]}>{t(`delivery.${d.status}`)}</Badge>
                  </td>
                  <td>{d.attempts.length}</td>
                  <td className="hide-narrow">{last(d)}</td>
                  <td className="hide-narrow">{format.dateTime(d.next_attempt_at)}</td>
                  <td>
                    <Button
                      small
                      busy={redeliver.isPending && redeliver.variables === d.id}
                      aria-label={t('redeliver_named', { event: d.event_type, at: format.dateTime(d.created_at) })}
                      onClick={() => redeliver.mutate(d.id)}
                    >
                      {t('redeliver')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager label={t('deliveries')} pages={paging} meta={deliveries.data?.meta} />
    </section>
  );
}

export function WebhookPage({ id }: { id: string }) {
  const t = useT(messages);
  const tc = useT(common);
  const te = useEventLabel();
  const format = useFormat();
  const webhook = useWebhook(id);
  const rotate = useRotateSecret(id);
  const test = useSendTest(id);
  const update = useUpdateWebhook(id);
  const [asking, setAsking] = useState(false);
  if (webhook.isPending) return <Loading label={tc('loading')} />;
  const back = (
    <p>
      <Link href="/webhooks">← {t('back_to_webhooks')}</Link>
    </p>
  );
  if (webhook.isError)
    return (
      <section className="stack">
        {back}
        <ErrorBanner error={webhook.error} />
      </section>
    );
  const w = webhook.data;
  return (
    <section className="stack" aria-labelledby="settings-section">
      {back}
      <h2 id="settings-section" className="break">
        {w.url}
      </h2>
      <ErrorBanner error={rotate.error ?? test.error ?? update.error} />
      <dl className="props card">
        <dt>{t('status')}</dt>
        <dd>
          {w.active ? <Badge tone="ok">{t('active')}</Badge> : <Badge tone="warn">{t('inactive')}</Badge>} {w.disabled_reason ? t('disabled_reason', { reason: w.disabled_reason }) : null}
        </dd>
        {w.description ? (
          <>
            <dt>{t('description_label')}</dt>
            <dd>{w.description}</dd>
          </>
        ) : null}
        <dt>{t('events')}</dt>
        <dd className="break">{w.events.includes('*') ? t('all_events') : w.events.map(te).join(', ')}</dd>
        <dt>{t('created')}</dt>
        <dd>{format.dateTime(w.created_at)}</dd>
      </dl>
      <div className="row">
        <Button busy={test.isPending} onClick={() => test.mutate()}>
          {t('send_test')}
        </Button>
        <Button busy={rotate.isPending} onClick={() => setAsking(true)}>
          {t('rotate')}
        </Button>
        <Button busy={update.isPending} onClick={() => update.mutate({ active: !w.active })}>
          {w.active ? t('deactivate_webhook') : t('activate_webhook')}
        </Button>
        {test.isSuccess ? (
          <span role="status" className="muted">
            {t('test_sent')}
          </span>
        ) : null}
      </div>
      {asking ? (
        <ConfirmRotate
          busy={rotate.isPending}
          onConfirm={() => rotate.mutate(undefined, { onSettled: () => setAsking(false) })}
          onClose={() => setAsking(false)}
        />
      ) : null}
      <SecretOnce title={t('webhook_secret_for', { url: w.url })} label={t('webhook_secret')} secret={rotate.data?.webhook.secret} onDone={() => rotate.reset()} />
      <DeliveryLog id={id} />
    </section>
  );
}

function ConfirmRotate({ busy, onConfirm, onClose }: { busy: boolean; onConfirm: () => void; onClose: () => void }) {
  const t = useT(messages);
  const tc = useT(common);
  return (
    <Dialog open onClose={onClose} title={t('rotate_title')}>
      <p>{t('rotate_text')}</p>
      <div className="row">
        <Button variant="primary" busy={busy} onClick={onConfirm}>
          {t('rotate')}
        </Button>
        <Button onClick={onClose}>{tc('cancel')}</Button>
      </div>
    </Dialog>
  );
}
