// How a stop reads on a phone: one address line, the time window as "10:00–12:00".
import type { Formatters } from '../i18n/index.tsx';
import type { Stop } from './data.ts';

export const addressLine = (stop: Pick<Stop, 'address'>): string => {
  const a = stop.address;
  return [[a.street, a.number].filter(Boolean).join(' '), [a.zip_code, a.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');
};

export const timeWindow = (stop: Pick<Stop, 'time_window'>, f: Formatters): string | null =>
  stop.time_window ? `${f.time(stop.time_window.starts_at)}–${f.time(stop.time_window.ends_at)}` : null;

/** The phone's map app: geo: URIs open it on Android; the label names the place. */
export const geoLink = (stop: Pick<Stop, 'location' | 'address'>): string => {
  const { lat, lng } = stop.location;
  return `geo:${lat},${lng}?q=${lat},${lng}(${encodeURIComponent(addressLine(stop))})`;
};
