// Places: the list, and a form to create and edit one (admins and managers both may, api-guide "Places"; deleting
// is the admin's alone and not offered here).
import { useState, type FormEvent } from 'react';
import { byId, useServiceAreas, type User } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useT } from '../../../i18n/index.tsx';
import { Badge, Button, Dialog, ErrorBanner, errorsAt, Loading, Pager, SelectField, TextField, useCursorPages } from '../../../ui/index.ts';
import { messages } from './messages.ts';

import { usePlaces, useSavePlace, type Place } from './queries.ts';

/** A coordinate typed with a comma or a point; null when it is not a number. */
const coordinate = (text: string): number | null => {
  const value = Number(text.trim().replace(',', '.'));
  return text.trim() && Number.isFinite(value) ? value : null;
};

function PlaceForm({ place, user, onClose }: { place: Place | null; user: User; onClose: () => void }) {
  const t = useT(messages);
  const tc = useT(common);
  const save = useSavePlace();
  const areas = useServiceAreas();
  const [name, setName] = useState(place?.name ?? '');
  const [hub, setHub] = useState(place?.is_hub ?? false);
  const [lat, setLat] = useState(place ? String(place.location.lat) : '');
  const [lng, setLng] = useState(place ? String(place.location.lng) : '');
  const [street, setStreet] = useState(place?.address.street ?? '');
  const [number, setNumber] = useState(place?.address.number ?? '');
  const [zip, setZip] = useState(place?.address.zip_code ?? '');
  const [city, setCity] = useState(place?.address.city ?? '');
  const [country, setCountry] = useState(place?.address.country ?? '');
  const [areaId, setAreaId] = useState(place?.service_area_id ?? '');
  const [invalid, setInvalid] = useState<{ lat?: boolean; lng?: boolean }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const location = { lat: coordinate(lat), lng: coordinate(lng) };
    setInvalid({ lat: location.lat === null, lng: location.lng === null });
    if (location.lat === null || location.lng === null) return;
    const address = { street: street.trim(), city: city.trim(), number: number.trim() || null, zip_code: zip.trim() || null, country: country.trim() || null };
    save.mutate(
      {
        ...(place ? { id: place.id } : {}),
        place: { name: name.trim(), is_hub: hub, location: { lat: location.lat, lng: location.lng }, address, ...(user.role === 'admin' ? { service_area_id: areaId || null } : {}) },
      },
      { onSuccess: onClose },
    );
  };
  const at = (pointer: string) => errorsAt(save.error, `/place/${pointer}`);
  const shown = ['name', 'is_hub', 'location', 'address', 'service_area_id'].map((f) => `/place/${f}`);
  return (
    <Dialog open onClose={onClose} title={place ? t('edit_named', { name: place.name }) : t('new_place')}>
      <form className="stack" onSubmit={submit}>
        <ErrorBanner error={save.error} shownPointers={shown} />
        <TextField label={t('name')} required value={name} onChange={(e) => setName(e.target.value)} errors={at('name')} />
        <div className="field">
          <label className="row">
            <input type="checkbox" checked={hub} onChange={(e) => setHub(e.target.checked)} /> {t('is_hub')}
          </label>
        </div>
        <div className="row">
          <TextField label={t('lat')} inputMode="decimal" required value={lat} onChange={(e) => setLat(e.target.value)} errors={invalid.lat ? [t('coordinate_invalid')] : at('location/lat')} />
          <TextField label={t('lng')} inputMode="decimal" required value={lng} onChange={(e) => setLng(e.target.value)} errors={invalid.lng ? [t('coordinate_invalid')] : at('location/lng')} />
        </div>
        <div className="row">
          <TextField label={t('street')} required value={street} onChange={(e) => setStreet(e.target.value)} errors={at('address/street')} />
          <TextField label={t('number')} value={number} onChange={(e) => setNumber(e.target.value)} errors={at('address/number')} />
        </div>
        <div className="row">
          <TextField label={t('zip')} value={zip} onChange={(e) => setZip(e.target.value)} errors={at('address/zip_code')} />
          <TextField label={t('city')} required value={city} onChange={(e) => setCity(e.target.value)} errors={at('address/city')} />
          <TextField label={t('country')} value={country} maxLength={2} onChange={(e) => setCountry(e.target.value)} errors={at('address/country')} />
        </div>
        {user.role === 'admin' ? (
          <SelectField label={t('area')} value={areaId} onChange={(e) => setAreaId(e.target.value)} errors={at('service_area_id')}>
            <option value="">{t('no_area')}</option>
            {(areas.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        <div className="row">
          <Button type="submit" variant="primary" busy={save.isPending}>
            {tc('save')}
          </Button>
          <Button onClick={onClose}>{tc('cancel')}</Button>
        </div>
      </form>
    </Dialog>
  );
}

export function PlacesSection({ user }: { user: User }) {
  const t = useT(messages);
  const tc = useT(common);
  const paging = useCursorPages();
  const places = usePlaces(paging.cursor);
  const areas = byId(useServiceAreas().data);
  const [editing, setEditing] = useState<Place | 'new' | null>(null);
  return (
    <section className="stack" aria-labelledby="settings-section">
      <div className="page-head">
        <h2 id="settings-section">{t('places')}</h2>
        <Button variant="primary" onClick={() => setEditing('new')}>
          {t('new_place')}
        </Button>
      </div>
      {editing ? <PlaceForm place={editing === 'new' ? null : editing} user={user} onClose={() => setEditing(null)} /> : null}
      <ErrorBanner error={places.error} />
      {places.isPending ? <Loading label={tc('loading')} /> : null}
      {places.data?.places.length === 0 ? <p className="card">{t('empty')}</p> : null}
      {places.data?.places.length ? (
        <div className="table-wrap">
          <table className="data">
            <caption className="visually-hidden">{t('places')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('name')}</th>
                <th scope="col">{t('address')}</th>
                {user.role === 'admin' ? <th scope="col" className="hide-narrow">{t('area')}</th> : null}
                <th scope="col">{t('col_actions')}</th>
              </tr>
            </thead>
            <tbody>
              {places.data.places.map((place) => (
                <tr key={place.id}>
                  <td>
                    {place.name} {place.is_hub ? <Badge tone="info">{t('hub')}</Badge> : null}
                  </td>
                  <td className="break">
                    {[place.address.street, place.address.number].filter(Boolean).join(' ')}, {[place.address.zip_code, place.address.city].filter(Boolean).join(' ')}
                  </td>
                  {user.role === 'admin' ? <td className="hide-narrow">{place.service_area_id ? (areas.get(place.service_area_id)?.name ?? '…') : '—'}</td> : null}
                  <td>
                    <Button small aria-label={t('edit_named', { name: place.name })} onClick={() => setEditing(place)}>
                      {t('edit')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager label={t('places')} pages={paging} meta={places.data?.meta} />
    </section>
  );
}
