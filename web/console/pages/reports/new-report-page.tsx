// New report: title, tags, the file and its grants, uploaded as multipart with a progress bar; the API's errors at
// the fields their pointers name. On success the report's page opens.
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { type User } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useT } from '../../../i18n/index.tsx';
import { Button, ErrorBanner, PageHead, TextArea, TextField, errorsAt } from '../../../ui/index.ts';
import { FileField } from './file-field.tsx';
import { GrantsEditor, grantOf, type DraftGrant } from './grants.tsx';
import { messages } from './messages.ts';
import { useCreateReport, type Grant } from './queries.ts';
import { splitTags } from './reports-page.tsx';

export function NewReportPage({ user }: { user: User }) {
  const t = useT(messages);
  const tc = useT(common);
  const [, navigate] = useLocation();
  const create = useCreateReport();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [notify, setNotify] = useState(false);
  const [grants, setGrants] = useState<DraftGrant[]>([user.role === 'admin' ? { type: 'all_admins', id: '' } : { type: 'user', id: user.id }]);
  const [missing, setMissing] = useState<{ file?: boolean; grants?: boolean }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = grants.map(grantOf).filter((g): g is Grant => g !== null);
    const problems = { file: !file, grants: chosen.length === 0 };
    setMissing(problems);
    if (!file || problems.grants) return;
    create.mutate(
      {
        report: { title: title.trim(), ...(description.trim() ? { description: description.trim() } : {}), tags: splitTags(tags), grants: chosen, notify_by_email: notify },
        file,
      },
      { onSuccess: ({ report }) => navigate(`/reports/${report.id}`) },
    );
  };
  const percent = create.progress === null ? null : Math.round(create.progress * 100);
  const shown = ['/report/title', '/report/description', '/report/tags', '/report/grants', '/file'];

  return (
    <section className="stack" aria-labelledby="new-report-title">
      <p>
        <Link href="/reports">← {t('back')}</Link>
      </p>
      <PageHead title={<span id="new-report-title">{t('form_title')}</span>} />
      <form className="stack card form-narrow" onSubmit={submit} aria-labelledby="new-report-title">
        <ErrorBanner error={create.error} shownPointers={shown} />
        <TextField label={t('report_title')} value={title} required maxLength={200} onChange={(e) => setTitle(e.target.value)} errors={errorsAt(create.error, '/report/title')} />
        <TextArea label={t('report_description')} value={description} onChange={(e) => setDescription(e.target.value)} errors={errorsAt(create.error, '/report/description')} />
        <TextField label={t('report_tags')} hint={t('report_tags_hint')} value={tags} onChange={(e) => setTags(e.target.value)} errors={errorsAt(create.error, '/report/tags')} />
        <FileField label={t('report_file')} hint={t('report_file_hint')} file={file} onChange={setFile} errors={missing.file ? [t('file_required')] : errorsAt(create.error, '/file')} />
        <div className="field">
          <label className="row">
            <input type="checkbox" checked={notify} onChange={(e) => setNotify(e.target.checked)} /> {t('report_notify')}
          </label>
        </div>
        <GrantsEditor user={user} grants={grants} onChange={setGrants} error={create.error} />
        {missing.grants ? <p className="error">{t('grant_required')}</p> : null}
        {percent !== null ? (
          <div className="field" role="status">
            <label htmlFor="upload-progress">{t('uploading', { percent })}</label>
            <progress id="upload-progress" max={100} value={percent} />
          </div>
        ) : null}
        <div className="row">
          <Button type="submit" variant="primary" busy={create.isPending}>
            {t('upload')}
          </Button>
          <Link className="btn" href="/reports">
            {tc('cancel')}
          </Link>
        </div>
      </form>
    </section>
  );
}
