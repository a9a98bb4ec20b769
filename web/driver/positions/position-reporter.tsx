// Watches the phone's position while the driver's tour is en route and sends it (positions.ts); renders nothing.
import { useEffect, useMemo } from 'react';
import { apiLanguage } from '../../api/client.ts';
import { useOpenTours } from '../data.ts';
import { projectTour, useOutbox } from '../queue/index.ts';
import { badFixes, PositionBuffer, type Fix, type SendOutcome } from './positions.ts';

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

/** One fix through the single route (the API's fast path), several through the batch route (decision 1207). */
async function sendFixes(tourId: string, fixes: Fix[]): Promise<SendOutcome> {
  const locations = fixes.map(({ tourId: _tour, ...location }) => location);
  const batch = locations.length > 1;
  let response: Response;
  try {
    response = await fetch(`/api/hailing/tours/${tourId}/${batch ? 'driver_locations' : 'driver_location'}`, {
      method: 'POST',
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { 'content-type': 'application/json', 'accept-language': apiLanguage() },
      body: JSON.stringify(batch ? { locations } : { location: locations[0] }),
    });
  } catch {
    return { kind: 'retry' };
  }
  if (response.ok) return { kind: 'sent' };
  if (response.status >= 500 || response.status === 429 || response.status === 401) return { kind: 'retry' };
  // A batch refused for some of its fixes (a clock far ahead): those go, the others are sent again.
  const problem: unknown = batch && response.status === 422 ? await response.json().catch(() => null) : null;
  return { kind: 'dropped', bad: badFixes(problem) };
}

const flush = () => void buffer.flush(sendFixes);

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
