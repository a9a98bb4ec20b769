// Which clock a page's times are on, said once under its heading (decision 1682): the console shows times in the
// service area's zone, so a dispatcher in another zone is not left guessing; the driver app says the phone's zone.
import { useMemo } from 'react';
import { byId, useServiceAreas } from '../api/index.ts';
import { defineMessages, useLang, useT, type Lang } from '../i18n/index.tsx';

const messages = defineMessages({
  en: { times: 'Times: {zones}', times_device: 'Times: {zones}, the zone of this device' },
  de: { times: 'Zeitangaben: {zones}', times_device: 'Zeitangaben: {zones}, die Zeitzone dieses Geräts' },
});

/** "Central European Time (Europe/Monaco)": the zone's name in the page's language, and its IANA id to be exact. */
export function zoneLabel(timeZone: string, lang: Lang): string {
  try {
    const name = new Intl.DateTimeFormat(lang, { timeZone, timeZoneName: 'longGeneric' })
      .formatToParts(new Date())
      .find((part) => part.type === 'timeZoneName')?.value;
    return name && name !== timeZone ? `${name} (${timeZone})` : timeZone;
  } catch {
    return timeZone; // a zone this browser does not know: its id is still the truth
  }
}

/** The zone this browser's clock is on. */
export const deviceZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

export interface AreaZones {
  /** The zone of one service area (undefined until the areas are read). */
  zoneOf: (areaId: string | null | undefined) => string | undefined;
  /** The zones of some areas, each once. */
  zonesOf: (areaIds: Iterable<string | null | undefined>) => string[];
  /** Every zone the tenant's areas are in, each once: for a page listing things of any area. */
  all: string[];
}

export function useAreaZones(): AreaZones {
  const areas = useServiceAreas().data;
  return useMemo(() => {
    const byArea = byId(areas);
    const zoneOf = (areaId: string | null | undefined) => (areaId ? byArea.get(areaId)?.time_zone : undefined);
    const zonesOf = (areaIds: Iterable<string | null | undefined>) => [...new Set([...areaIds].map(zoneOf).filter((zone): zone is string => zone !== undefined))];
    return { zoneOf, zonesOf, all: [...new Set((areas ?? []).map((area) => area.time_zone))] };
  }, [areas]);
}

/** The note itself; nothing while no zone is known yet (the page's times are not shown yet either). */
export function TimesNote({ zones, device = false }: { zones: readonly string[]; device?: boolean }) {
  const t = useT(messages);
  const { lang } = useLang();
  if (zones.length === 0) return null;
  return (
    <p className="muted times-note" data-time-zones={zones.join(' ')}>
      {t(device ? 'times_device' : 'times', { zones: zones.map((zone) => zoneLabel(zone, lang)).join('; ') })}
    </p>
  );
}
