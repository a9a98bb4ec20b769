// The compensation editor: base earnings and up to five bonuses, each saved on its own; tips read-only (tip
// distribution awards them); the total as the service computes it; the change history.
import { useState, type FormEvent } from 'react';
import { common } from '../../../i18n/common.ts';
import { useFormat, useLang, useT } from '../../../i18n/index.tsx';
import { amountInput, parseAmount } from '../../../i18n/money.ts';
import { Banner, Button, ErrorBanner, Loading, TextField, errorsAt } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { useCompensation, useRemoveComponent, useResumeTips, useSetComponent } from './queries.ts';

const MAX_BONUSES = 5;

interface ComponentFormProps {
  tourId: string;
  currency: string;
  kind: 'base' | 'bonus';
  initial?: { key?: string; amount: number; label: string | null };
  /** A new bonus asks for its key; existing ones keep theirs. */
  newBonus?: boolean;
  onDone?: () => void;
}

function ComponentForm({ tourId, currency, kind, initial, newBonus, onDone }: ComponentFormProps) {
  const t = useT(messages);
  const tc = useT(common);
  const { lang } = useLang();
  const save = useSetComponent(tourId);
  const remove = useRemoveComponent(tourId);
  const [key, setKey] = useState(initial?.key ?? '');
  const [amount, setAmount] = useState(initial ? amountInput(initial.amount, currency, lang) : '');
  const [label, setLabel] = useState(initial?.label ?? '');
  const [invalid, setInvalid] = useState(false);
  const name = kind === 'base' ? t('base') : t('component.bonus', { key: key || '…' });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minor = parseAmount(amount, currency);
    setInvalid(minor === null);
    if (minor === null) return;
    const component = kind === 'base' ? { kind: 'base' as const } : { kind: 'bonus' as const, key: key.trim() };
    save.mutate({ ...component, amount: minor, currency, label: label.trim() || null }, { onSuccess: () => onDone?.() });
  };
  const error = save.error ?? remove.error;
  return (
    <form className="stack card" onSubmit={submit} aria-label={name}>
      <ErrorBanner error={error} shownPointers={['/amount', '/label']} />
      <div className="row">
        {newBonus ? <TextField label={t('bonus_key')} value={key} required maxLength={64} pattern="[a-z0-9_]+" onChange={(e) => setKey(e.target.value)} /> : null}
        <TextField
          label={`${kind === 'base' ? t('base') : t('component.bonus', { key })} — ${t('amount', { currency })}`}
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          errors={invalid ? [t('amount_invalid')] : errorsAt(error, '/amount')}
        />
        <TextField label={kind === 'base' ? t('base_label') : `${t('bonus_label')} (${key || '…'})`} value={label} maxLength={200} onChange={(e) => setLabel(e.target.value)} errors={errorsAt(error, '/label')} />
      </div>
      <div className="row">
        <Button type="submit" variant="primary" busy={save.isPending}>
          {tc('save')}
        </Button>
        {kind === 'bonus' && !newBonus ? (
          <Button variant="danger" busy={remove.isPending} onClick={() => remove.mutate({ kind: 'bonus', key })}>
            {t('remove_bonus', { key })}
          </Button>
        ) : null}
        {newBonus ? <Button onClick={onDone}>{tc('cancel')}</Button> : null}
        {save.isSuccess ? (
          <span role="status" className="muted">
            {t('saved')}
          </span>
        ) : null}
      </div>
    </form>
  );
}

export function CompensationEditor({ tourId, timeZone }: { tourId: string; timeZone?: string | undefined }) {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const compensation = useCompensation(tourId);
  const resume = useResumeTips(tourId);
  const [adding, setAdding] = useState(false);
  if (compensation.isPending) return <Loading label={tc('loading')} />;
  if (compensation.isError) return <ErrorBanner error={compensation.error} />;
  const c = compensation.data;
  const money = (amount: number) => format.money(amount, c.currency);
  return (
    <section className="stack" aria-labelledby="compensation-title">
      <h2 id="compensation-title">{t('compensation')}</h2>
      <dl className="props card">
        <dt>{t('base')}</dt>
        <dd>{money(c.breakdown.base_earnings.amount)}</dd>
        {c.breakdown.bonuses.map((bonus) => (
          <div key={bonus.key} className="contents">
            <dt>{bonus.label ?? bonus.key}</dt>
            <dd>{money(bonus.amount)}</dd>
          </div>
        ))}
        <dt>{t('tips')}</dt>
        <dd>{money(c.breakdown.tips.amount)}</dd>
        <dt>
          <strong>{t('total')}</strong>
        </dt>
        <dd>
          <strong data-testid="compensation-total">{money(c.total_amount)}</strong>
        </dd>
      </dl>
      {c.tip_distribution.status === 'paused' ? (
        <Banner tone="warn">
          {t('tips_paused', { reason: c.tip_distribution.paused_reason ?? '' })}{' '}
          <Button small busy={resume.isPending} onClick={() => resume.mutate()}>
            {t('resume_tips')}
          </Button>
        </Banner>
      ) : null}
      <ComponentForm key={`base-${c.breakdown.base_earnings.amount}-${c.breakdown.base_earnings.label}`} tourId={tourId} currency={c.currency} kind="base" initial={c.breakdown.base_earnings} />
      <h3>{t('bonuses')}</h3>
      {c.breakdown.bonuses.map((bonus) => (
        <ComponentForm key={`bonus-${bonus.key}-${bonus.amount}-${bonus.label}`} tourId={tourId} currency={c.currency} kind="bonus" initial={bonus} />
      ))}
      {adding ? (
        <ComponentForm tourId={tourId} currency={c.currency} kind="bonus" newBonus onDone={() => setAdding(false)} />
      ) : c.breakdown.bonuses.length < MAX_BONUSES ? (
        <div>
          <Button onClick={() => setAdding(true)}>{t('add_bonus')}</Button>
        </div>
      ) : (
        <p className="muted">{t('bonus_limit')}</p>
      )}
      <h3>{t('history')}</h3>
      {c.history.length === 0 ? (
        <p className="muted">{t('no_history')}</p>
      ) : (
        <div className="table-wrap">
          <table className="data" aria-label={t('history')}>
            <tbody>
              {[...c.history].reverse().map((entry, i) => (
                <tr key={i}>
                  <td>{format.dateTime(entry.at, timeZone)}</td>
                  <td>{entry.component === 'bonus' ? t('component.bonus', { key: entry.key ?? '' }) : t(`component.${entry.component}`)}</td>
                  <td>
                    {entry.from ? money(entry.from.amount) : '—'} → {entry.to ? money(entry.to.amount) : t('removed')}
                    {entry.to?.label ? ` (${entry.to.label})` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
