// Drivers' shifts (docs/console.md "Shifts"; decision 1601): one day for all drivers, or one week for one driver;
// create, edit and delete a shift, and copy one day's shifts to other days in one action. Times are shown and entered
// on the service area's clock, said once at the top of the page; the API refuses overlaps (422 `shift_overlap`) and
// the form says which shift it overlaps.
import { useMemo, useState, type FormEvent } from 'react';
import { byId, isApiError, useDrivers, useOrganizations, useServiceAreas, type User } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useLang, useT } from '../../../i18n/index.tsx';
import { Banner, Button, Dialog, ErrorBanner, errorsAt, Loading, PageHead, SelectField, TextField } from '../../../ui/index.ts';
import { addDays, isoToZoned, mondayOf, todayIn, weekdayOf, zonedToIso } from '../../../ui/zoned-time.ts';
import { usePlaces, type Place } from '../bookings/queries.ts';
import { Checkboxes, Confirm } from '../settings/parts.tsx';
import { messages } from './messages.ts';
import { useCopyShifts, useCreateShift, useDeleteShift, useUpdateShift, useWeekShifts, type Shift, type ShiftCreate } from './queries.ts';

type View = 'day' | 'week';
type Editing = { shift: Shift } | { driverId: string; date: string };

const POINTERS = ['/shift/starts_at', '/shift/ends_at', '/shift/start_place_id', '/shift/start_location', '/shift/end_place_id', '/shift/end_location', '/shift/vehicle'];

/** "Monday, 30 November" in the page's language; dates are the zone's wall-clock dates already. */
function useDayLabel() {
  const { lang } = useLang();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(lang, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
    return (date: string) => format.format(new Date(`${date}T12:00:00Z`));
  }, [lang]);
}

const listOf = (text: string) => [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];

/** The drivers who work in the area: members of an organization serving it (all drivers when no organization says). */
function driversOf(drivers: User[], organizationAreas: Map<string, string[]>, areaId: string | undefined): User[] {
  const active = drivers.filter((d) => !d.deactivated_at).sort((a, b) => a.name.localeCompare(b.name));
  if (!areaId) return active;
  const serving = active.filter((d) => d.organization_ids.some((id) => organizationAreas.get(id)?.includes(areaId)));
  return serving.length ? serving : active;
}

function ShiftForm({ editing, drivers, places, known, timeZone, shiftName, onClose }: { editing: Editing; drivers: User[]; places: Place[]; known: Shift[]; timeZone: string; shiftName: (shift: Shift) => string; onClose: () => void }) {
  const t = useT(messages);
  const tc = useT(common);
  const create = useCreateShift();
  const update = useUpdateShift();
  const existing = 'shift' in editing ? editing.shift : null;
  const save = existing ? update : create;
  const startsLocal = existing ? isoToZoned(existing.starts_at, timeZone) : { date: 'date' in editing ? editing.date : '', time: '07:00' };
  const endsLocal = existing ? isoToZoned(existing.ends_at, timeZone) : { date: startsLocal.date, time: '15:00' };
  const firstHub = places.find((p) => p.is_hub) ?? places[0];
  const [driverId, setDriverId] = useState(existing?.driver_id ?? ('driverId' in editing ? editing.driverId : ''));
  const [date, setDate] = useState(startsLocal.date);
  const [starts, setStarts] = useState(startsLocal.time);
  const [ends, setEnds] = useState(endsLocal.time);
  const [startPlace, setStartPlace] = useState(existing ? (existing.start_place_id ?? '') : (firstHub?.id ?? ''));
  const [endPlace, setEndPlace] = useState(existing ? (existing.end_place_id ?? (existing.end_location ? 'own' : '')) : (firstHub?.id ?? ''));
  const [packages, setPackages] = useState(existing?.vehicle?.capacity?.packages?.toString() ?? '');
  const [weight, setWeight] = useState(existing?.vehicle?.capacity?.weight_kg?.toString() ?? '');
  const [skills, setSkills] = useState(existing?.vehicle?.skills?.join(', ') ?? '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const endsDate = ends <= starts ? addDays(date, 1) : date;
    const capacity = { ...(packages ? { packages: Number(packages) } : {}), ...(weight ? { weight_kg: Number(weight) } : {}) };
    const skillList = listOf(skills);
    const vehicle = Object.keys(capacity).length || skillList.length ? { ...(Object.keys(capacity).length ? { capacity } : {}), ...(skillList.length ? { skills: skillList } : {}) } : null;
    const times = { starts_at: zonedToIso(date, starts, timeZone), ends_at: zonedToIso(endsDate, ends, timeZone) };
    if (existing) {
      update.mutate(
        {
          id: existing.id,
          shift: {
            ...times,
            ...(startPlace ? { start_place_id: startPlace } : {}),
            ...(endPlace === 'own' ? {} : { end_place_id: endPlace || null }),
            vehicle,
          },
        },
        { onSuccess: onClose },
      );
    } else {
      const shift: ShiftCreate = { ...times, ...(startPlace ? { start_place_id: startPlace } : {}), ...(endPlace ? { end_place_id: endPlace } : {}), ...(vehicle ? { vehicle } : {}) };
      create.mutate({ driverId, shift }, { onSuccess: onClose });
    }
  };

  const error = save.error;
  // The overlap is said in the page's words and zone: the API names the other shift by id and UTC times.
  const conflicting = isApiError(error) && error.code === 'shift_overlap' ? String(error.problem.conflicting_shift_id ?? '') : '';
  const other = known.find((s) => s.id === conflicting);
  const startErrors = conflicting ? [other ? t('overlap_with', { when: shiftName(other) }) : error instanceof Error ? error.message : ''] : errorsAt(error, '/shift/starts_at');
  const placeOptions = places.map((p) => (
    <option key={p.id} value={p.id}>
      {p.name}
    </option>
  ));
  const driverName = drivers.find((d) => d.id === driverId)?.name ?? '';
  return (
    <Dialog open onClose={onClose} title={existing ? t('edit_title', { when: shiftName(existing) }) : t('new_title')}>
      <form className="stack" onSubmit={submit}>
        <ErrorBanner error={error} shownPointers={POINTERS} />
        {existing ? (
          <p>
            {t('driver')}: <strong>{driverName}</strong>
          </p>
        ) : (
          <SelectField label={t('driver')} required value={driverId} onChange={(e) => setDriverId(e.target.value)}>
            {drivers.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </SelectField>
        )}
        <TextField label={t('date')} type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
        <div className="row">
          <TextField label={t('starts')} type="time" required value={starts} onChange={(e) => setStarts(e.target.value)} errors={startErrors} />
          <TextField label={t('ends')} hint={t('ends_hint')} type="time" required value={ends} onChange={(e) => setEnds(e.target.value)} errors={errorsAt(error, '/shift/ends_at')} />
        </div>
        <SelectField label={t('start_place')} required value={startPlace} onChange={(e) => setStartPlace(e.target.value)} errors={[...(errorsAt(error, '/shift/start_place_id') ?? []), ...(errorsAt(error, '/shift/start_location') ?? [])]}>
          {existing && !existing.start_place_id ? <option value="">{t('own_location')}</option> : null}
          {placeOptions}
        </SelectField>
        <SelectField label={t('end_place')} value={endPlace} onChange={(e) => setEndPlace(e.target.value)} errors={[...(errorsAt(error, '/shift/end_place_id') ?? []), ...(errorsAt(error, '/shift/end_location') ?? [])]}>
          <option value="">{t('end_last_stop')}</option>
          {existing?.end_location && !existing.end_place_id ? <option value="own">{t('own_location')}</option> : null}
          {placeOptions}
        </SelectField>
        <div className="row">
          <TextField label={t('capacity_packages')} hint={t('unlimited')} type="number" min={0} max={100000} step={1} value={packages} onChange={(e) => setPackages(e.target.value)} errors={errorsAt(error, '/shift/vehicle/capacity/packages')} />
          <TextField label={t('capacity_weight')} hint={t('unlimited')} type="number" min={0} max={100000} step="any" value={weight} onChange={(e) => setWeight(e.target.value)} errors={errorsAt(error, '/shift/vehicle/capacity/weight_kg')} />
        </div>
        <TextField label={t('skills')} hint={t('skills_hint')} value={skills} onChange={(e) => setSkills(e.target.value)} errors={errorsAt(error, '/shift/vehicle/skills')} />
        <div className="row">
          <Button type="submit" variant="primary" busy={save.isPending}>
            {existing ? tc('save') : t('create')}
          </Button>
          <Button onClick={onClose}>{tc('cancel')}</Button>
        </div>
      </form>
    </Dialog>
  );
}

function CopyDialog({ week, initialFrom, drivers, initialDriver, shiftsOn, timeZone, driverName, onClose }: {
  week: string[];
  initialFrom: string;
  drivers: User[];
  initialDriver: string;
  shiftsOn: (driverId: string, date: string) => Shift[];
  timeZone: string;
  driverName: (id: string) => string;
  onClose: () => void;
}) {
  const t = useT(messages);
  const tc = useT(common);
  const dayLabel = useDayLabel();
  const copy = useCopyShifts();
  const [from, setFrom] = useState(initialFrom);
  const [who, setWho] = useState(initialDriver);
  const [to, setTo] = useState<string[]>([]);
  const [nothing, setNothing] = useState(false);
  const targets = week.filter((d) => d !== from);
  const items = () => {
    const ids = who === 'all' ? drivers.map((d) => d.id) : [who];
    return ids.flatMap((driverId) =>
      shiftsOn(driverId, from).flatMap((shift) => {
        const starts = isoToZoned(shift.starts_at, timeZone);
        const ends = isoToZoned(shift.ends_at, timeZone);
        const span = Math.round((Date.parse(`${ends.date}T00:00Z`) - Date.parse(`${starts.date}T00:00Z`)) / 86_400_000);
        return to.map((date) => ({
          driverId,
          date,
          shift: {
            starts_at: zonedToIso(date, starts.time, timeZone),
            ends_at: zonedToIso(addDays(date, span), ends.time, timeZone),
            ...(shift.start_place_id ? { start_place_id: shift.start_place_id } : { start_location: shift.start_location }),
            ...(shift.end_place_id ? { end_place_id: shift.end_place_id } : shift.end_location ? { end_location: shift.end_location } : {}),
            ...(shift.vehicle ? { vehicle: shift.vehicle } : {}),
          } satisfies ShiftCreate,
        }));
      }),
    );
  };
  const planned = copy.variables ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const list = items();
    setNothing(list.length === 0);
    if (list.length) copy.mutate(list);
  };
  const outcomes = copy.data;
  const refused = outcomes?.filter((o) => o.error) ?? [];
  const workweek = week.filter((d) => weekdayOf(d) < 5 && d > from);
  return (
    <Dialog open onClose={onClose} title={t('copy_title')}>
      <form className="stack" onSubmit={submit}>
        <SelectField label={t('copy_from')} value={from} onChange={(e) => setFrom(e.target.value)}>
          {week.map((d) => (
            <option key={d} value={d}>
              {dayLabel(d)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('copy_who')} value={who} onChange={(e) => setWho(e.target.value)}>
          <option value="all">{t('copy_all', { count: drivers.length })}</option>
          {drivers.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </SelectField>
        <Checkboxes legend={t('copy_to')} options={targets.map((d) => ({ value: d, label: dayLabel(d) }))} value={to.filter((d) => d !== from)} onChange={setTo} />
        {workweek.length ? (
          <div>
            <Button small onClick={() => setTo(workweek)}>
              {t('copy_workweek')}
            </Button>
          </div>
        ) : null}
        <div role="status">
          {nothing ? <Banner tone="warn">{t('copy_nothing')}</Banner> : null}
          {outcomes ? (
            <Banner tone={refused.length ? 'warn' : 'ok'}>
              <p>{t('copy_done', { created: outcomes.length - refused.length })}</p>
              {refused.length ? (
                <>
                  <p>{t('copy_refused', { count: refused.length })}</p>
                  <ul>
                    {refused.map((o) => {
                      const item = planned[o.index];
                      const reason = isApiError(o.error) ? o.error.message : o.error instanceof Error ? o.error.message : String(o.error);
                      return <li key={o.index}>{t('copy_line', { driver: driverName(item?.driverId ?? ''), day: item ? dayLabel(item.date) : '', reason })}</li>;
                    })}
                  </ul>
                </>
              ) : null}
            </Banner>
          ) : null}
        </div>
        <ErrorBanner error={copy.error} />
        <div className="row">
          <Button type="submit" variant="primary" busy={copy.isPending} disabled={to.length === 0}>
            {t('copy_run')}
          </Button>
          <Button onClick={onClose}>{outcomes ? tc('close') : tc('cancel')}</Button>
        </div>
      </form>
    </Dialog>
  );
}

export function ShiftsPage() {
  const t = useT(messages);
  const tc = useT(common);
  const dayLabel = useDayLabel();
  const areas = useServiceAreas();
  const drivers = useDrivers();
  const organizations = useOrganizations();
  const places = usePlaces();
  const [areaChoice, setAreaChoice] = useState('');
  const area = areas.data?.find((a) => a.id === areaChoice) ?? areas.data?.[0];
  const timeZone = area?.time_zone ?? 'UTC';
  const [view, setView] = useState<View>('day');
  const [dateChoice, setDateChoice] = useState('');
  const date = dateChoice || todayIn(timeZone);
  const organizationAreas = new Map((organizations.data ?? []).map((o) => [o.id, o.service_area_ids]));
  const shown = driversOf(drivers.data ?? [], organizationAreas, area?.id);
  const [driverChoice, setDriverChoice] = useState('');
  const driver = shown.find((d) => d.id === driverChoice) ?? shown[0];
  const monday = mondayOf(date);
  const week = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  const shifts = useWeekShifts(
    shown.map((d) => d.id),
    zonedToIso(monday, '00:00', timeZone),
    zonedToIso(addDays(monday, 7), '00:00', timeZone),
  );
  const known = [...shifts.byDriver.values()].flat();
  const areaPlaces = (places.data ?? []).filter((p) => !area || p.service_area_id === area.id).sort((a, b) => Number(b.is_hub) - Number(a.is_hub) || a.name.localeCompare(b.name));
  const placeNames = byId(places.data);
  const drivers_ = byId(shown);
  const driverName = (id: string) => drivers_.get(id)?.name ?? '…';
  const shiftsOn = (driverId: string, day: string) => (shifts.byDriver.get(driverId) ?? []).filter((s) => isoToZoned(s.starts_at, timeZone).date === day);
  const hours = (shift: Shift) => `${isoToZoned(shift.starts_at, timeZone).time}–${isoToZoned(shift.ends_at, timeZone).time}`;
  const shiftName = (shift: Shift) => `${driverName(shift.driver_id)}, ${dayLabel(isoToZoned(shift.starts_at, timeZone).date)} ${hours(shift)}`;

  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Shift | null>(null);
  const [copying, setCopying] = useState(false);
  const remove = useDeleteShift();

  const shiftLine = (shift: Shift) => {
    const start = shift.start_place_id ? placeNames.get(shift.start_place_id)?.name : null;
    const end = shift.end_place_id ? placeNames.get(shift.end_place_id)?.name : null;
    const where = start ? (end && end !== start ? `${start} → ${end}` : start) : null;
    const parcels = shift.vehicle?.capacity?.packages;
    const parts = [where, parcels !== undefined ? t('parcels', { count: parcels }) : null, shift.vehicle?.skills?.length ? shift.vehicle.skills.join(', ') : null].filter(Boolean);
    return (
      <li key={shift.id} className="row">
        <span>
          <strong>{hours(shift)}</strong>
          {parts.length ? <span className="muted"> · {parts.join(' · ')}</span> : null}
        </span>
        <Button small aria-label={t('edit_named', { when: shiftName(shift) })} onClick={() => setEditing({ shift })}>
          {t('edit')}
        </Button>
        <Button small variant="danger" aria-label={t('delete_named', { when: shiftName(shift) })} onClick={() => setDeleting(shift)}>
          {t('delete')}
        </Button>
      </li>
    );
  };
  const shiftCell = (list: Shift[]) => (list.length ? <ul className="plain-list stack">{list.map(shiftLine)}</ul> : <span className="muted">{t('no_shift')}</span>);

  if (areas.isPending || drivers.isPending || places.isPending) return <Loading label={tc('loading')} />;
  const step = view === 'day' ? 1 : 7;
  return (
    <section className="stack" aria-labelledby="shifts-title">
      <PageHead
        title={<span id="shifts-title">{t('title')}</span>}
        timeZones={area ? [timeZone] : []}
        actions={
          shown.length ? (
            <>
              <Button onClick={() => setCopying(true)}>{t('copy')}</Button>
              <Button variant="primary" onClick={() => setEditing({ driverId: view === 'week' && driver ? driver.id : (shown[0]?.id ?? ''), date })}>
                {t('new_shift')}
              </Button>
            </>
          ) : null
        }
      />
      <p className="muted">{t('intro')}</p>
      <ErrorBanner error={areas.error ?? drivers.error ?? places.error ?? shifts.error ?? remove.error} />
      {!shown.length ? <Banner tone="warn">{t('no_drivers')}</Banner> : null}
      {!areaPlaces.length ? <Banner tone="warn">{t('no_places')}</Banner> : null}
      <div className="row">
        {(areas.data?.length ?? 0) > 1 ? (
          <SelectField label={t('area')} value={area?.id ?? ''} onChange={(e) => setAreaChoice(e.target.value)}>
            {areas.data?.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        <SelectField label={t('view')} value={view} onChange={(e) => setView(e.target.value as View)}>
          <option value="day">{t('view.day')}</option>
          <option value="week">{t('view.week')}</option>
        </SelectField>
        {view === 'week' && shown.length ? (
          <SelectField label={t('driver')} value={driver?.id ?? ''} onChange={(e) => setDriverChoice(e.target.value)}>
            {shown.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        <TextField label={t('day')} type="date" required value={date} onChange={(e) => e.target.value && setDateChoice(e.target.value)} />
        <Button onClick={() => setDateChoice(addDays(date, -step))}>{view === 'day' ? t('previous_day') : t('previous_week')}</Button>
        <Button onClick={() => setDateChoice(addDays(date, step))}>{view === 'day' ? t('next_day') : t('next_week')}</Button>
      </div>
      {shifts.isPending && shown.length ? <Loading label={tc('loading')} /> : null}
      {view === 'day' && shown.length ? (
        <div className="table-wrap">
          <table className="data">
            <caption>{t('shifts_of', { day: dayLabel(date) })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('col_driver')}</th>
                <th scope="col">{t('col_shifts')}</th>
                <th scope="col">{t('col_actions')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((d) => (
                <tr key={d.id}>
                  <th scope="row">{d.name}</th>
                  <td>{shiftCell(shiftsOn(d.id, date))}</td>
                  <td>
                    <Button small aria-label={t('add_for', { name: d.name })} onClick={() => setEditing({ driverId: d.id, date })}>
                      {t('add')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {view === 'week' && driver ? (
        <div className="table-wrap">
          <table className="data">
            <caption>{t('week_table', { name: driver.name, date: dayLabel(monday) })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('col_day')}</th>
                <th scope="col">{t('col_shifts')}</th>
                <th scope="col">{t('col_actions')}</th>
              </tr>
            </thead>
            <tbody>
              {week.map((day) => (
                <tr key={day} aria-current={day === date ? 'date' : undefined}>
                  <th scope="row">{dayLabel(day)}</th>
                  <td>{shiftCell(shiftsOn(driver.id, day))}</td>
                  <td>
                    <Button small aria-label={t('add_on', { day: dayLabel(day) })} onClick={() => setEditing({ driverId: driver.id, date: day })}>
                      {t('add')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {editing ? <ShiftForm editing={editing} drivers={shown} places={areaPlaces} known={known} timeZone={timeZone} shiftName={shiftName} onClose={() => setEditing(null)} /> : null}
      {copying ? (
        <CopyDialog week={week} initialFrom={date} drivers={shown} initialDriver={view === 'week' && driver ? driver.id : 'all'} shiftsOn={shiftsOn} timeZone={timeZone} driverName={driverName} onClose={() => setCopying(false)} />
      ) : null}
      <Confirm
        open={deleting !== null}
        title={t('delete_title', { when: deleting ? shiftName(deleting) : '' })}
        action={t('delete')}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
        onClose={() => setDeleting(null)}
      >
        <p>{t('delete_text')}</p>
      </Confirm>
    </section>
  );
}
