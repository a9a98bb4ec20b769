// Reports: the reports shared with the caller, newest first, narrowed by tags kept in the URL, with cursor paging.
import type { FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { Button, deviceZone, ErrorBanner, Loading, PageHead, Pager, TextField, useCursorPages } from '../../../ui/index.ts';
import { ReportState } from './grants.tsx';
import { messages } from './messages.ts';
import { useReportsPage } from './queries.ts';

export const splitTags = (text: string): string[] =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

export function ReportsPage() {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const search = useSearch();
  const [, navigate] = useLocation();
  const tags = new URLSearchParams(search).getAll('tag');
  const pages = useCursorPages();
  const reports = useReportsPage(tags, pages.cursor);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const tag of splitTags(String(new FormData(event.currentTarget).get('tags') ?? ''))) params.append('tag', tag);
    pages.reset();
    navigate(`/reports${params.size ? `?${params}` : ''}`);
  };

  return (
    <section className="stack" aria-labelledby="reports-title">
      <PageHead
        timeZones={[deviceZone()]}
        deviceZone
        title={<span id="reports-title">{t('title')}</span>}
        actions={
          <Link className="btn btn-primary" href="/reports/new">
            {t('new_report')}
          </Link>
        }
      />
      <form className="card row" onSubmit={submit} aria-label={t('filters')} key={search}>
        <TextField label={t('tags_filter')} name="tags" hint={t('tags_filter_hint')} defaultValue={tags.join(', ')} />
        <div className="row">
          <Button type="submit" variant="primary">
            {t('apply')}
          </Button>
          <Button
            onClick={() => {
              pages.reset();
              navigate('/reports');
            }}
          >
            {t('reset')}
          </Button>
        </div>
      </form>
      {reports.isError ? <ErrorBanner error={reports.error} /> : null}
      {reports.isPending ? <Loading label={tc('loading')} /> : null}
      {reports.data ? (
        reports.data.reports.length === 0 ? (
          <p className="card">{t('empty')}</p>
        ) : (
          <div className="table-wrap">
            <table className="data" aria-busy={reports.isFetching || undefined}>
              <caption className="visually-hidden">{t('title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('col_title')}</th>
                  <th scope="col">{t('col_status')}</th>
                  <th scope="col">{t('col_tags')}</th>
                  <th scope="col" className="hide-narrow">{t('col_created')}</th>
                  <th scope="col" className="hide-narrow">{t('col_expires')}</th>
                </tr>
              </thead>
              <tbody>
                {reports.data.reports.map((report) => (
                  <tr key={report.id}>
                    <td>
                      <Link href={`/reports/${report.id}`}>{report.title}</Link>
                      {report.file ? <div className="muted">{report.file.name}</div> : null}
                    </td>
                    <td>
                      <ReportState status={report.status} />
                    </td>
                    <td>{report.tags.length ? report.tags.join(', ') : '—'}</td>
                    <td className="hide-narrow">{format.dateTime(report.created_at)}</td>
                    <td className="hide-narrow">{format.dateTime(report.expires_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
      <Pager label={t('title')} pages={pages} meta={reports.data?.meta} />
    </section>
  );
}
