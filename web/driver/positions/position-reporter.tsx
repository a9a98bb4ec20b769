// Watches the phone's position while the driver's tour is en route and sends it (positions.ts); renders nothing.
import { useEffect, useMemo } from 'react';
import { apiLanguage } from '../../api/client.ts';
import { useOpenTours } from '../data.ts';
import { projectTour, useOutbox } from '../queue/index.ts';
import { PositionBuffer, type Fix } from './positions.ts';

const STORAGE_KEY = 'tourbook.driver.positions';

function loadFixes(): Fix[] {
  try {
    return JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]') as Fix[];
  } catch {
    return [];
  }
}

const buffer = new PositionBuffer((fixes) => {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(fixes));
  } catch {
    // storage full: the fixes still wait in memory
  }
}, loadFixes());

async function sendFix(fix: Fix): Promise<'sent' | 'dropped' | 'retry'> {
  const { tourId, ...location } = fix;
  let response: Response;
  try {
    response = await fetch(`/api/hailing/tours/${tourId}/driver_location`, {
      method: 'POST',
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { 'content-type': 'application/json', 'accept-language': apiLanguage() },
      body: JSON.stringify({ location }),
    });
  } catch {
    return 'retry';
  }
  if (response.ok) return 'sent';
  return response.status >= 500 || response.status === 429 || response.status === 401 ? 'retry' : 'dropped';
}

const flush = () => void buffer.flush(sendFix);

export function PositionReporter({ driverId }: { driverId: string }) {
  const tours = useOpenTours();
  const actions = useOutbox();
  const tourId = useMemo(
    () => (tours.data ?? []).map((tour) => projectTour(tour, actions, driverId)).find((tour) => tour.driver_id === driverId && tour.status === 'en_route')?.id ?? null,
    [tours.data, actions, driverId],
  );

  useEffect(() => {
    addEventListener('online', flush);
    const retry = setInterval(flush, 15_000);
    flush();
    return () => {
      removeEventListener('online', flush);
      clearInterval(retry);
    };
  }, []);

  useEffect(() => {
    if (!tourId || !('geolocation' in navigator)) return;
    const watch = navigator.geolocation.watchPosition(
      (position) => {
        const { latitude, longitude, heading, speed, accuracy } = position.coords;
        const fix: Fix = {
          tourId,
          lat: latitude,
          lng: longitude,
          ...(heading !== null && Number.isFinite(heading) ? { heading } : {}),
          ...(speed !== null && Number.isFinite(speed) ? { speed } : {}),
          ...(Number.isFinite(accuracy) ? { accuracy } : {}),
          recorded_at: new Date(position.timestamp).toISOString(),
        };
        if (buffer.record(fix)) flush();
      },
      () => undefined,
      { enableHighAccuracy: true, maximumAge: 5000 },
    );
    return () => navigator.geolocation.clearWatch(watch);
  }, [tourId]);

  return null;
}
