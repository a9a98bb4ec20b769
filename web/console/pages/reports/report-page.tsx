// One report: its file and state, "Download" while it is ready, whom its grants reach with "Revoke" per grant, and
// its download activity. Revoking and the activity are for its creator and admins (api-guide "Grants"); others see
// neither offered.
import { useState } from 'react';
import { Link } from 'wouter';
import { type User } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { Button, deviceZone, Dialog, ErrorBanner, Loading, PageHead } from '../../../ui/index.ts';
import { ReportState, useGrantWords } from './grants.tsx';
import { messages } from './messages.ts';
import { useGrantableUsers, useReport, useReportActivity, useRevokeGrant, type Report } from './queries.ts';

function Activity({ id }: { id: string }) {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const activity = useReportActivity(id, true);
  const users = new Map((useGrantableUsers().data ?? []).map((u) => [u.id, u.name]));
  return (
    <section className="stack" aria-labelledby="activity-title">
      <h2 id="activity-title">{t('activity')}</h2>
      {activity.isError ? <ErrorBanner error={activity.error} /> : null}
      {activity.isPending ? <Loading label={tc('loading')} /> : null}
      {activity.data && activity.data.length === 0 ? <p className="muted">{t('no_activity')}</p> : null}
      {activity.data?.length ? (
        <div className="table-wrap">
          <table className="data">
            <caption className="visually-hidden">{t('activity')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('col_when')}</th>
                <th scope="col">{t('col_who')}</th>
                <th scope="col">{t('col_outcome')}</th>
              </tr>
            </thead>
            <tbody>
              {activity.data.map((entry) => (
                <tr key={entry.id}>
                  <td>{format.dateTime(entry.at)}</td>
                  <td>{users.get(entry.user_id) ?? `…${entry.user_id.slice(-6)}`}</td>
                  <td>{t(`outcome.${entry.outcome}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function Grants({ report, mayManage }: { report: Report; mayManage: boolean }) {
  const t = useT(messages);
  const tc = useT(common);
  const words = useGrantWords();
  const revoke = useRevokeGrant(report.id);
  const [asking, setAsking] = useState<number | null>(null);
  return (
    <section className="stack" aria-labelledby="grants-title">
      <h2 id="grants-title">{t('grants')}</h2>
      <ErrorBanner error={revoke.error} />
      <ul className="plain-list stack card">
        {report.grants.map((grant, i) => (
          <li key={`${i}-${JSON.stringify(grant)}`} className="row-between">
            <span>{words(grant)}</span>
            {mayManage ? (
              <Button small variant="danger" aria-label={t('revoke_grant', { grant: words(grant) })} onClick={() => setAsking(i)}>
                {t('revoke')}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      <Dialog open={asking !== null} onClose={() => setAsking(null)} title={t('revoke_title')}>
        <p>{t('revoke_text', { title: report.title })}</p>
        {asking !== null && report.grants[asking] ? <p><strong>{words(report.grants[asking])}</strong></p> : null}
        <div className="row">
          <Button
            variant="danger"
            busy={revoke.isPending}
            onClick={() => asking !== null && revoke.mutate(asking, { onSettled: () => setAsking(null) })}
          >
            {t('revoke_confirm')}
          </Button>
          <Button onClick={() => setAsking(null)}>{tc('cancel')}</Button>
        </div>
      </Dialog>
    </section>
  );
}

export function ReportPage({ id, user }: { id: string; user: User }) {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const report = useReport(id);
  if (report.isPending) return <Loading label={tc('loading')} />;
  if (report.isError)
    return (
      <section className="stack">
        <ErrorBanner error={report.error} />
        <p>
          <Link href="/reports">{t('back')}</Link>
        </p>
      </section>
    );
  const r = report.data;
  const mayManage = user.role === 'admin' || r.created_by_id === user.id;
  return (
    <section className="stack" aria-labelledby="report-title">
      <p>
        <Link href="/reports">← {t('back')}</Link>
      </p>
      <PageHead
        timeZones={[deviceZone()]}
        deviceZone
        title={<span id="report-title">{r.title}</span>}
        actions={
          r.status === 'ready' && r.file ? (
            <a className="btn btn-primary" href={`/api/reports/${r.id}/download`} download={r.file.name} aria-label={t('download_file', { name: r.file.name })}>
              {t('download')}
            </a>
          ) : null
        }
      />
      <div className="two-col">
        <dl className="props card" aria-label={t('details')}>
          <dt>{t('col_status')}</dt>
          <dd>
            <ReportState status={r.status} />
          </dd>
          {r.description ? (
            <>
              <dt>{t('description')}</dt>
              <dd>{r.description}</dd>
            </>
          ) : null}
          <dt>{t('tags')}</dt>
          <dd>{r.tags.length ? r.tags.join(', ') : t('no_tags')}</dd>
          <dt>{t('file')}</dt>
          <dd className="break">{r.file ? r.file.name : t('no_file')}</dd>
          {r.file ? (
            <>
              <dt>{t('size')}</dt>
              <dd>{t('bytes', { n: format.number(r.file.size_bytes) })}</dd>
              <dt>{t('checksum')}</dt>
              <dd className="mono break">{r.file.sha256}</dd>
            </>
          ) : null}
          {r.failure_reason ? (
            <>
              <dt>{t('failure_reason')}</dt>
              <dd>{r.failure_reason}</dd>
            </>
          ) : null}
          <dt>{t('created')}</dt>
          <dd>{format.dateTime(r.created_at)}</dd>
          {r.ready_at ? (
            <>
              <dt>{t('ready_at')}</dt>
              <dd>{format.dateTime(r.ready_at)}</dd>
            </>
          ) : null}
          <dt>{t('expires')}</dt>
          <dd>{format.dateTime(r.expires_at)}</dd>
          <dt>{t('notify')}</dt>
          <dd>{r.notify_by_email ? tc('yes') : tc('no')}</dd>
        </dl>
        <Grants report={r} mayManage={mayManage} />
      </div>
      {mayManage ? <Activity id={r.id} /> : null}
    </section>
  );
}
