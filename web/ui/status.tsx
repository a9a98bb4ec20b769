// A booking's, tour's or stop's state as a badge: words first (colour only repeats them).
import { common } from '../i18n/common.ts';
import { useT } from '../i18n/index.tsx';
import { Badge } from './components.tsx';

const TONES: Record<string, 'neutral' | 'info' | 'ok' | 'warn' | 'danger'> = {
  to_be_dispatched: 'warn',
  partially_dispatched: 'warn',
  dispatched: 'info',
  scheduled: 'info',
  pickable: 'info',
  claimed: 'info',
  en_route: 'info',
  approaching: 'info',
  arrived: 'info',
  completed: 'ok',
  failed: 'danger',
  cancelled: 'neutral',
};

export function StatusBadge({ status }: { status: string }) {
  const t = useT(common);
  const key = `status.${status}` as keyof typeof common.en;
  return <Badge tone={TONES[status] ?? 'neutral'}>{key in common.en ? t(key) : status}</Badge>;
}
