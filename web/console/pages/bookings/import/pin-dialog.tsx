// Placing a row that could not be located on the map by hand: a click (or the map's centre, for the keyboard: arrow
// keys pan the focused map) sets the pin, "Save the pin" makes it the place for that address (POST /api/places, or the
// place the address already has), so this import and the next find it (contract §14, "Stops from addresses").
import { Suspense, useRef, useState } from 'react';
import { useT } from '../../../../i18n/index.tsx';
import { MapCanvas, type MapLibreMap } from '../../../../map/index.ts';
import { Button, Dialog, ErrorBanner, Loading } from '../../../../ui/index.ts';
import { placeForPin } from '../queries.ts';
import { messages } from './messages.ts';
import type { StopAddress } from './rows.ts';

export interface PinTarget {
  row: number;
  key: string;
  label: string;
  address: StopAddress;
  center: [number, number] | undefined;
}

type Point = { lat: number; lng: number };

function showPin(map: MapLibreMap, pin: Point) {
  const data = { type: 'FeatureCollection' as const, features: [{ type: 'Feature' as const, properties: {}, geometry: { type: 'Point' as const, coordinates: [pin.lng, pin.lat] } }] };
  const source = map.getSource('import-pin') as { setData?: (d: typeof data) => void } | undefined;
  if (source?.setData) return source.setData(data);
  map.addSource('import-pin', { type: 'geojson', data });
  map.addLayer({ id: 'import-pin', type: 'circle', source: 'import-pin', paint: { 'circle-radius': 9, 'circle-color': '#b3261e', 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 3 } });
}

export function PinDialog({ target, serviceAreaId, onClose, onSaved }: { target: PinTarget; serviceAreaId: string | null; onClose: () => void; onSaved: (key: string, placeId: string) => void }) {
  const t = useT(messages);
  const [pin, setPin] = useState<Point | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const place = (point: Point) => {
    setPin(point);
    if (mapRef.current) showPin(mapRef.current, point);
  };
  const save = async () => {
    if (!pin) return;
    setSaving(true);
    setError(null);
    try {
      const address = { street: target.address.street, city: target.address.city, number: target.address.number ?? null, zip_code: target.address.zip_code ?? null, country: target.address.country ?? null, additional_line: target.address.additional_line ?? null };
      onSaved(target.key, await placeForPin({ name: target.label, address, location: { lat: Number(pin.lat.toFixed(6)), lng: Number(pin.lng.toFixed(6)) }, serviceAreaId }));
    } catch (caught) {
      setError(caught);
      setSaving(false);
    }
  };
  return (
    <Dialog open onClose={onClose} title={t('pin_title', { address: target.label })}>
      <div className="stack">
        <p className="muted">{t('pin_hint')}</p>
        <div className="import-pin-map">
          <Suspense fallback={<Loading label={t('pin_map')} />}>
            <MapCanvas
              label={t('pin_map')}
              center={target.center}
              onReady={(map) => {
                mapRef.current = map;
                map.on('click', (event) => place({ lat: event.lngLat.lat, lng: event.lngLat.lng }));
                map.getCanvas().addEventListener('keydown', (event) => {
                  if (event.key !== 'Enter') return;
                  const c = map.getCenter();
                  place({ lat: c.lat, lng: c.lng });
                });
              }}
            />
          </Suspense>
        </div>
        <p role="status">{pin ? t('pin_at', { lat: pin.lat.toFixed(5), lng: pin.lng.toFixed(5) }) : t('pin_none')}</p>
        {error ? <ErrorBanner error={error} /> : null}
        <div className="row">
          <Button variant="primary" disabled={!pin} busy={saving} onClick={() => void save()}>
            {t('pin_save')}
          </Button>
          <Button onClick={onClose}>{t('pin_cancel')}</Button>
        </div>
      </div>
    </Dialog>
  );
}
