// tourName (web/api/tour-name.ts) with what a page knows: the drivers' names, the page's language, the area's zone.
import { useMemo } from 'react';
import { byId, tourName, useDrivers, useServiceAreas, type NameableTour } from '../api/index.ts';
import { common } from '../i18n/common.ts';
import { useLang, useT } from '../i18n/index.tsx';

export function useTourName(): (tour: NameableTour & { service_area_id?: string }) => string {
  const drivers = useDrivers().data;
  const areas = useServiceAreas().data;
  const { lang } = useLang();
  const t = useT(common);
  const noDriver = t('tour.no_driver');
  return useMemo(() => {
    const names = byId(drivers);
    const zones = byId(areas);
    const options = { weekday: 'short', day: 'numeric', month: 'short' } as const;
    // One format per zone the tours can be in, made once: formatting ~100 names must not build ~100 formats.
    const formats = new Map((areas ?? []).map((a) => [a.time_zone, new Intl.DateTimeFormat(lang, { ...options, timeZone: a.time_zone })]));
    const local = new Intl.DateTimeFormat(lang, options);
    return (tour) => {
      const zone = tour.service_area_id ? zones.get(tour.service_area_id)?.time_zone : undefined;
      const format = (zone ? formats.get(zone) : undefined) ?? local;
      return tourName(tour, { driverName: (id) => names.get(id)?.name, day: (iso) => format.format(new Date(iso)), noDriver });
    };
  }, [drivers, areas, lang, noDriver]);
}
