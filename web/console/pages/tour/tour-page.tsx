// The tour page: its stops as a timeline (live: any event of the tour refetches it, so a recovery stop appears
// without a reload), the dispatcher's actions the tour's state allows, failing a stop, and the compensation editor.
import { useCallback } from 'react';
import { byId, useDrivers, useLiveStream, useServiceAreas } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { ErrorBanner, Loading, PageHead, StatusBadge, useTourName } from '../../../ui/index.ts';
import { CompensationEditor } from './compensation-editor.tsx';
import { messages } from './messages.ts';
import { PlanActual } from './plan-actual.tsx';
import { useTour } from './queries.ts';
import { StopTimeline } from './stop-timeline.tsx';
import { TourActions } from './tour-actions.tsx';
import { TourMap } from './tour-map.tsx';

export function TourPage({ id }: { id: string }) {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const tour = useTour(id);
  const areas = useServiceAreas();
  const drivers = useDrivers();
  const nameOf = useTourName();
  const refetch = tour.refetch;
  const onEvent = useCallback(() => void refetch(), [refetch]);
  useLiveStream(onEvent, { tourId: id, enabled: tour.isSuccess, onOpened: onEvent });

  if (tour.isPending) return <Loading label={tc('loading')} />;
  if (tour.isError) return <ErrorBanner error={tour.error} />;
  const data = tour.data;
  const area = byId(areas.data).get(data.service_area_id);
  const driver = data.driver_id ? byId(drivers.data).get(data.driver_id) : undefined;
  return (
    <section className="stack">
      <PageHead title={t('title', { id: nameOf(data) })} actions={<StatusBadge status={data.status} />} timeZones={area ? [area.time_zone] : []} />
      <dl className="props card">
        <dt>{t('driver')}</dt>
        <dd>{data.driver_id ? (driver?.name ?? data.driver_id) : t('no_driver')}</dd>
        <dt>{t('scheduled')}</dt>
        <dd>{format.dateTime(data.scheduled_at, area?.time_zone)}</dd>
        {data.claim_expires_at ? (
          <>
            <dt>{t('claim_expires')}</dt>
            <dd>{format.dateTime(data.claim_expires_at, area?.time_zone)}</dd>
          </>
        ) : null}
      </dl>
      <TourActions tourId={data.id} status={data.status} />
      <PlanActual tourId={data.id} progressKey={`${data.status}|${(data.stops ?? []).map((s) => s.status).join(',')}`} timeZone={area?.time_zone} />
      {(data.stops ?? []).length ? <TourMap tourId={data.id} stops={data.stops ?? []} /> : null}
      <div className="two-col">
        <section className="stack" aria-labelledby="stops-title">
          <h2 id="stops-title">{t('stops')}</h2>
          <StopTimeline tourId={data.id} stops={data.stops ?? []} timeZone={area?.time_zone} />
        </section>
        <CompensationEditor tourId={data.id} timeZone={area?.time_zone} />
      </div>
    </section>
  );
}
