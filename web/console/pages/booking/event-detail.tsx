// What one event of the booking's timeline says beyond its type, in words (decision 1662): statuses, the failure's
// outcome and reason, why auto-dispatch waited — never a key. No data of its own: the timeline passes the reasons.
import type { Schemas } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { useInstructionsText } from '../../../i18n/recipient-instructions.tsx';
import { messages } from './messages.ts';
import { RecipientMailNote } from './recipient-mail-note.tsx';

type Event = Schemas['Event'];
type MessageKey = keyof typeof messages.en;

/** Why auto-dispatch left the booking waiting, with the binding constraint of a `no_fit` (decision 1350). */
export function skipReason(t: (key: MessageKey) => string, reason: string | null, constraint: string | null): string {
  const text = t(`auto_dispatch_reason.${reason ?? 'no_fit'}` as MessageKey);
  return constraint ? `${text} (${t(`auto_dispatch_constraint.${constraint}` as MessageKey)})` : text;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

const KINDS = ['none', 'leave_at_door', 'neighbour'] as const;

/** The recipient's instructions as the event carries them (decision 1788), in the words the driver reads. */
function InstructionsNote({ data }: { data: Event['data'] }) {
  const { text: say } = useInstructionsText();
  const given = (data.instructions ?? {}) as { kind?: unknown; neighbour?: unknown; note?: unknown };
  const kind = KINDS.find((k) => k === given.kind) ?? 'none';
  return <div>{say({ kind, neighbour: text(given.neighbour), note: text(given.note), updated_at: '' })}</div>;
}

/** What one event says beyond its type, in words; null when its type says it all. */
export function EventDetail({ event, reasons }: { event: Pick<Event, 'type' | 'data'>; reasons?: ReadonlyMap<string, string> | undefined }) {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const day = (value: unknown) => (/^\d{4}-\d{2}-\d{2}$/.test(text(value) ?? '') ? format.date(`${String(value)}T12:00:00Z`, 'UTC') : t('unknown_value'));
  const status = (value: unknown) => {
    const key = `status.${String(value)}` as keyof typeof common.en;
    return key in common.en ? tc(key) : t('unknown_value');
  };
  const data = event.data;
  switch (event.type) {
    case 'booking.transition':
      return <div>{t('transition', { from: status(data.from), to: status(data.to) })}</div>;
    case 'booking.stop_failed': {
      const reason = (data.failure_reason ?? {}) as { key?: unknown; label?: unknown; note?: unknown };
      const outcome = `outcome.${String(data.outcome)}` as MessageKey;
      return (
        <div>
          {t('failed_reason', { reason: reasons?.get(String(reason.key)) ?? text(reason.label) ?? t('no_reason') })} · {outcome in messages.en ? t(outcome) : t('unknown_value')}
          {text(reason.note) ? <div className="muted">{t('failed_note', { note: text(reason.note)! })}</div> : null}
        </div>
      );
    }
    case 'booking.auto_dispatch_skipped':
      return <div>{t('auto_dispatch_skipped', { reason: skipReason(t, text(data.reason), text(data.constraint)) })}</div>;
    case 'booking.feedback_received':
      return <div>{t('rating', { rating: Number(data.rating) })}</div>;
    case 'booking.recipient_notification_due':
      return <RecipientMailNote event={event} />;
    case 'booking.recipient_instructions_updated':
      return <InstructionsNote data={data} />;
    // The days are the service area's calendar days: shown as dates, at noon UTC so no zone moves them.
    case 'booking.delivery_date_changed':
      return <div>{t('delivery_moved', { from: day(data.from_date), to: day(data.to_date) })}</div>;
    default:
      return null;
  }
}

