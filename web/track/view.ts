// The tracking page's content as HTML, from the tracking object (docs/tracking.md): rendered by the server (works
// without JavaScript) and again by the page's script on every live change. Pure: no DOM, no Node (decision 1103).

export type TrackLang = 'en' | 'de';

interface TimeWindow {
  starts_at: string;
  ends_at: string;
}

export interface TrackingView {
  booking_status: string;
  sender: { name: string; logo_url: string | null };
  stops: {
    kind: 'pickup' | 'dropoff';
    status: string;
    time_window: TimeWindow | null;
    eta: string | null;
    eta_window: { earliest: string; latest: string } | null;
    completed_at: string | null;
    failure: { reason: string } | null;
    next_attempt: { time_window: TimeWindow | null } | null;
    proof: { recipient_name: string | null; photo_url: string | null } | null;
    /** On the recipient's own stops only (contract §18). */
    address?: { street: string; number: string | null; zip_code: string | null; city: string };
    date?: string | null;
  }[];
  driver: { first_name: string; position: { lat: number; lng: number; recorded_at: string } | null } | null;
  stops_before_yours: number | null;
  feedback: { rating: number; comment: string | null } | null;
}

const MESSAGES = {
  en: {
    title: 'Your delivery',
    from: 'From {name}',
    logo: 'Logo of {name}',
    'booking.to_be_dispatched': 'Being planned',
    'booking.partially_dispatched': 'Scheduled for delivery',
    'booking.dispatched': 'Scheduled for delivery',
    'booking.completed': 'Delivered',
    'booking.cancelled': 'Cancelled',
    'kind.pickup': 'Pickup',
    'kind.dropoff': 'Delivery',
    'stop.to_be_dispatched': 'Being planned',
    'stop.scheduled': 'Scheduled',
    'stop.approaching': 'The driver is on the way',
    'stop.arrived': 'The driver has arrived',
    'stop.completed': 'Done',
    'stop.failed': 'Not possible',
    'stop.cancelled': 'Cancelled',
    eta: 'Expected between {from} and {to}',
    window: 'Time window {from}–{to}',
    completed: 'Done at {at}',
    nextAttempt: 'Next attempt: {from}–{to}',
    nextAttemptOpen: 'A new attempt will be planned.',
    receivedBy: 'Received by {name}',
    driverHere: '{name} is on the way to you.',
    driverBefore: '{name} has {count} stops before yours.',
    driverBeforeOne: '{name} has 1 stop before yours.',
    driver: 'Your driver: {name}',
    position: 'Last seen at {at}',
    feedbackTitle: 'How was your delivery?',
    rating: 'Rating',
    stars: '{count} of 5',
    comment: 'Comment',
    send: 'Send rating',
    thanks: 'Thank you for your rating: {rating} of 5.',
    live: 'Updates live',
    offline: 'Live updates paused; the page shows the last known state.',
    utc: 'UTC',
    notFound: 'This tracking link does not exist (any more). Ask the sender for a new one.',
    gone: 'This tracking link has expired: the delivery finished some time ago.',
    failedSend: 'The rating could not be sent: {reason}',
    photo: 'Photo of the delivery',
    map: 'Map: the driver is {distance} from your stop.',
    mapNoStop: 'Map: where the driver is.',
    streetMap: 'Your stop on the map (the driver too once on the way to you). © OpenStreetMap contributors.',
    streetMapLabel: 'Street map: your stop, and the driver once on the way to you. Arrow keys pan, plus and minus zoom.',
    streetMapFailed: 'The street map could not be loaded; status and times above are current.',
    driverMarker: 'Driver',
    stopMarker: 'Your stop',
    instructionsTitle: 'Instructions for the driver',
    ifAbsent: 'If nobody answers',
    'instructions.none': 'Keep it and try again',
    'instructions.leave_at_door': 'Leave it at the door',
    'instructions.neighbour': 'Give it to a neighbour',
    neighbour: "Neighbour's name and door",
    note: 'Note for the driver (optional), e.g. a door code',
    saveInstructions: 'Save instructions',
    instructionsSaved: 'Saved at {at}. The driver will see them.',
    instructionsGiven: 'Your instructions: {kind}',
    instructionsNeighbour: 'Neighbour: {name}',
    instructionsNote: 'Note: {note}',
    failedInstructions: 'The instructions could not be saved: {reason}',
    dayTitle: 'Delivery day',
    dayIntro: 'Not at home on {date}? You can move the delivery to a later day, once.',
    dayLabel: 'Later day',
    dayMove: 'Move the delivery',
    dayQuestion: 'Move the delivery to {date}? The day can be changed only once.',
    dayConfirm: 'Yes, move it',
    dayKeep: 'Keep the day',
    dayMoved: 'You moved the delivery from {from} to {to}.',
    dayFailed: 'The delivery could not be moved: {reason}',
  },
  de: {
    title: 'Ihre Sendung',
    from: 'Von {name}',
    logo: 'Logo von {name}',
    'booking.to_be_dispatched': 'Wird geplant',
    'booking.partially_dispatched': 'Zur Zustellung eingeplant',
    'booking.dispatched': 'Zur Zustellung eingeplant',
    'booking.completed': 'Zugestellt',
    'booking.cancelled': 'Storniert',
    'kind.pickup': 'Abholung',
    'kind.dropoff': 'Zustellung',
    'stop.to_be_dispatched': 'Wird geplant',
    'stop.scheduled': 'Geplant',
    'stop.approaching': 'Die Fahrerin oder der Fahrer ist unterwegs',
    'stop.arrived': 'Die Fahrerin oder der Fahrer ist angekommen',
    'stop.completed': 'Erledigt',
    'stop.failed': 'Nicht möglich',
    'stop.cancelled': 'Storniert',
    eta: 'Erwartet zwischen {from} und {to}',
    window: 'Zeitfenster {from}–{to}',
    completed: 'Erledigt um {at}',
    nextAttempt: 'Nächster Versuch: {from}–{to}',
    nextAttemptOpen: 'Ein neuer Versuch wird geplant.',
    receivedBy: 'Entgegengenommen von {name}',
    driverHere: '{name} ist auf dem Weg zu Ihnen.',
    driverBefore: '{name} hat noch {count} Stopps vor Ihrem.',
    driverBeforeOne: '{name} hat noch 1 Stopp vor Ihrem.',
    driver: 'Ihre Fahrerin oder Ihr Fahrer: {name}',
    position: 'Zuletzt gesehen um {at}',
    feedbackTitle: 'Wie war Ihre Zustellung?',
    rating: 'Bewertung',
    stars: '{count} von 5',
    comment: 'Kommentar',
    send: 'Bewertung senden',
    thanks: 'Danke für Ihre Bewertung: {rating} von 5.',
    live: 'Aktualisiert sich live',
    offline: 'Live-Aktualisierung unterbrochen; die Seite zeigt den letzten bekannten Stand.',
    utc: 'UTC',
    notFound: 'Diesen Sendungsverfolgungs-Link gibt es nicht (mehr). Bitten Sie den Absender um einen neuen.',
    gone: 'Dieser Sendungsverfolgungs-Link ist abgelaufen: die Zustellung liegt schon einige Zeit zurück.',
    failedSend: 'Die Bewertung konnte nicht gesendet werden: {reason}',
    photo: 'Foto der Zustellung',
    map: 'Karte: die Fahrerin oder der Fahrer ist {distance} von Ihrem Stopp entfernt.',
    mapNoStop: 'Karte: wo die Fahrerin oder der Fahrer ist.',
    streetMap: 'Ihr Stopp auf der Karte (auch die Fahrerin oder der Fahrer, sobald auf dem Weg zu Ihnen). © OpenStreetMap contributors.',
    streetMapLabel: 'Stadtplan: Ihr Stopp und die Fahrerin oder der Fahrer, sobald auf dem Weg zu Ihnen. Pfeiltasten verschieben, Plus und Minus zoomen.',
    streetMapFailed: 'Der Stadtplan konnte nicht geladen werden; Status und Zeiten oben sind aktuell.',
    driverMarker: 'Fahrer',
    stopMarker: 'Ihr Stopp',
    instructionsTitle: 'Hinweise für die Fahrerin oder den Fahrer',
    ifAbsent: 'Wenn niemand öffnet',
    'instructions.none': 'Mitnehmen und erneut versuchen',
    'instructions.leave_at_door': 'Vor der Tür abstellen',
    'instructions.neighbour': 'Bei einem Nachbarn abgeben',
    neighbour: 'Name und Tür des Nachbarn',
    note: 'Hinweis für die Zustellung (optional), z. B. ein Türcode',
    saveInstructions: 'Hinweise speichern',
    instructionsSaved: 'Gespeichert um {at}. Die Fahrerin oder der Fahrer sieht sie.',
    instructionsGiven: 'Ihre Hinweise: {kind}',
    instructionsNeighbour: 'Nachbar: {name}',
    instructionsNote: 'Hinweis: {note}',
    failedInstructions: 'Die Hinweise konnten nicht gespeichert werden: {reason}',
    dayTitle: 'Zustelltag',
    dayIntro: 'Am {date} nicht zu Hause? Sie können die Zustellung einmal auf einen späteren Tag verschieben.',
    dayLabel: 'Späterer Tag',
    dayMove: 'Zustellung verschieben',
    dayQuestion: 'Die Zustellung auf {date} verschieben? Der Tag lässt sich nur einmal ändern.',
    dayConfirm: 'Ja, verschieben',
    dayKeep: 'Tag behalten',
    dayMoved: 'Sie haben die Zustellung von {from} auf {to} verschoben.',
    dayFailed: 'Die Zustellung konnte nicht verschoben werden: {reason}',
  },
} as const;

export type TrackMessage = keyof (typeof MESSAGES)['en'];

export function trackText(lang: TrackLang, key: TrackMessage, params: Record<string, string | number> = {}): string {
  const template: string = MESSAGES[lang][key] ?? MESSAGES.en[key];
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => String(params[name] ?? ''));
}

export const pickTrackLang = (header: string | undefined | null): TrackLang => (/^\s*de\b/i.test(header ?? '') ? 'de' : 'en');

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Times in the reader's zone: the browser's own, or (on the server, which does not know it) UTC, said so. The
 * script renders again in the browser's zone as soon as it runs.
 */
export function timeFormatter(lang: TrackLang, timeZone?: string): (iso: string) => string {
  const format = new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { hour: '2-digit', minute: '2-digit', ...(timeZone ? { timeZone } : {}) });
  const suffix = timeZone === 'UTC' ? ` ${trackText(lang, 'utc')}` : '';
  return (iso) => `${format.format(new Date(iso))}${suffix}`;
}

export interface LatLng {
  lat: number;
  lng: number;
}

/** Great-circle distance in metres. */
export function distanceMetres(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

const formatDistance = (lang: TrackLang, metres: number): string =>
  metres < 1000
    ? `${Math.max(10, Math.round(metres / 10) * 10)} m`
    : `${new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB', { maximumFractionDigits: 1 }).format(metres / 1000)} km`;

/**
 * The small map (decision 1104): the driver and the recipient's stop as an inline SVG, scaled to fit both — no script,
 * no tiles, nothing fetched, so it costs no JavaScript and never holds up the page. Shown only while the read shows
 * the driver's position.
 */
export function renderMap(driver: LatLng, stop: LatLng | null, lang: TrackLang): string {
  const W = 320;
  const H = 180;
  const pad = 24;
  const points = stop ? [driver, stop] : [driver];
  const kx = Math.cos((driver.lat * Math.PI) / 180);
  const xs = points.map((p) => p.lng * kx);
  const ys = points.map((p) => p.lat);
  // At least ~500 m across, so two points close together do not fill the box.
  const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 0.0045);
  const scale = Math.min((W - 2 * pad) / span, (H - 2 * pad) / span);
  const cx = (Math.max(...xs) + Math.min(...xs)) / 2;
  const cy = (Math.max(...ys) + Math.min(...ys)) / 2;
  const at = (p: LatLng) => [W / 2 + (p.lng * kx - cx) * scale, H / 2 - (p.lat - cy) * scale].map((v) => v.toFixed(1));
  const [dx, dy] = at(driver);
  const label = escapeHtml(
    stop ? trackText(lang, 'map', { distance: formatDistance(lang, distanceMetres(driver, stop)) }) : trackText(lang, 'mapNoStop'),
  );
  const parts = [`<rect width="${W}" height="${H}" rx="8" class="track-map-bg"/>`];
  if (stop) {
    const [sx, sy] = at(stop);
    parts.push(
      `<line x1="${dx}" y1="${dy}" x2="${sx}" y2="${sy}" class="track-map-line"/>`,
      `<g class="track-map-stop"><title>${escapeHtml(trackText(lang, 'stopMarker'))}</title><rect x="${Number(sx) - 7}" y="${Number(sy) - 7}" width="14" height="14" rx="2"/></g>`,
    );
  }
  parts.push(`<g class="track-map-driver"><title>${escapeHtml(trackText(lang, 'driverMarker'))}</title><circle cx="${dx}" cy="${dy}" r="8"/></g>`);
  return `<figure class="track-map"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}">${parts.join('')}</svg><figcaption class="track-muted">${label}</figcaption></figure>`;
}

/** The small map's words alone: what the street map (drawn by the page's script beside this part) does not say. */
function mapCaption(driver: LatLng, stop: LatLng | null, lang: TrackLang): string {
  const label = stop ? trackText(lang, 'map', { distance: formatDistance(lang, distanceMetres(driver, stop)) }) : trackText(lang, 'mapNoStop');
  return `<p class="track-muted track-distance">${escapeHtml(label)}</p>`;
}

/**
 * The page's live part: status, driver (with the small map), stops (with ETA windows), proof, feedback given. With
 * `streetMap` the script draws the street map itself (decision 1721): the inline SVG gives way to its words.
 */
export function renderTracking(view: TrackingView, lang: TrackLang, time: (iso: string) => string, stop: LatLng | null = null, options: { streetMap?: boolean } = {}): string {
  const t = (key: TrackMessage, params?: Record<string, string | number>) => escapeHtml(trackText(lang, key, params));
  const status = (MESSAGES[lang] as Record<string, string>)[`booking.${view.booking_status}`] ?? view.booking_status;
  const parts: string[] = [`<p class="track-status" id="track-status">${escapeHtml(status)}</p>`];
  if (view.driver) {
    const name = view.driver.first_name;
    const line = view.driver.position
      ? t('driverHere', { name })
      : view.stops_before_yours === 1
        ? t('driverBeforeOne', { name })
        : view.stops_before_yours !== null
          ? t('driverBefore', { name, count: view.stops_before_yours })
          : t('driver', { name });
    parts.push(`<p class="track-driver">${line}</p>`);
    if (view.driver.position) {
      parts.push(`<p class="track-muted">${t('position', { at: time(view.driver.position.recorded_at) })}</p>`);
      parts.push(options.streetMap ? mapCaption(view.driver.position, stop, lang) : renderMap(view.driver.position, stop, lang));
    }
  }
  const stops = ownStops(view).map((stop) => {
    const lines: string[] = [];
    const stopStatus = (MESSAGES[lang] as Record<string, string>)[`stop.${stop.status}`] ?? stop.status;
    if (stop.date) lines.push(`<p class="track-date">${escapeHtml(formatDate(lang, stop.date))}</p>`);
    if (stop.address) lines.push(`<p class="track-address">${escapeHtml(formatAddress(stop.address))}</p>`);
    lines.push(`<p class="track-stop-status">${escapeHtml(stopStatus)}</p>`);
    if (stop.eta_window) lines.push(`<p class="track-eta">${t('eta', { from: time(stop.eta_window.earliest), to: time(stop.eta_window.latest) })}</p>`);
    else if (stop.time_window && !stop.completed_at) lines.push(`<p>${t('window', { from: time(stop.time_window.starts_at), to: time(stop.time_window.ends_at) })}</p>`);
    if (stop.completed_at) lines.push(`<p>${t('completed', { at: time(stop.completed_at) })}</p>`);
    if (stop.failure) lines.push(`<p class="track-failure">${escapeHtml(stop.failure.reason)}</p>`);
    if (stop.next_attempt) {
      const w = stop.next_attempt.time_window;
      lines.push(`<p>${w ? t('nextAttempt', { from: time(w.starts_at), to: time(w.ends_at) }) : t('nextAttemptOpen')}</p>`);
    }
    if (stop.proof?.recipient_name) lines.push(`<p>${t('receivedBy', { name: stop.proof.recipient_name })}</p>`);
    // The photo's link is scoped to this page's token (the server makes it); only http(s) links are rendered.
    if (stop.proof?.photo_url && /^(https?:\/\/|\/)/.test(stop.proof.photo_url)) {
      lines.push(`<p><a class="track-photo" href="${escapeHtml(stop.proof.photo_url)}" rel="noreferrer" target="_blank">${t('photo')}</a></p>`);
    }
    return `<li class="track-stop"><h2>${t(`kind.${stop.kind}`)}</h2>${lines.join('')}</li>`;
  });
  parts.push(`<ol class="track-stops">${stops.join('')}</ol>`);
  if (view.feedback) parts.push(`<p class="track-thanks">${t('thanks', { rating: view.feedback.rating })}</p>`);
  return parts.join('');
}

/**
 * The stops the page shows: the recipient's own (those the read gives an address, contract §18) — the drop-off, and
 * the pickup only where the recipient is the sender. A read without addresses (an older server) shows every stop.
 */
export function ownStops(view: TrackingView): TrackingView['stops'] {
  const own = view.stops.filter((s) => s.address !== undefined);
  return own.length ? own : view.stops;
}

/** A calendar day (YYYY-MM-DD, the service area's) in words: "Tuesday, 22 November 2026". */
export function formatDate(lang: TrackLang, date: string): string {
  const at = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(at.getTime())) return date;
  return new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(at);
}

/** "Torstraße 2, 10119 Berlin": the street and number, then the zip code and city. */
export function formatAddress(address: NonNullable<TrackingView['stops'][number]['address']>): string {
  const street = [address.street, address.number].filter(Boolean).join(' ');
  const city = [address.zip_code, address.city].filter(Boolean).join(' ');
  return [street, city].filter(Boolean).join(', ');
}

/**
 * Who sends, above the title: the sender's logo (only an /api/ path of this origin) and name. Not
 * part of the live region: it does not change while the page is open.
 */
export function renderSender(sender: TrackingView['sender'], lang: TrackLang): string {
  if (!sender.name) return '';
  // The page is served by the API's own origin: the logo is asked for there, by its path (img-src 'self').
  const path = sender.logo_url?.replace(/^https?:\/\/[^/]+(?=\/)/, '') ?? null;
  const logo = path?.startsWith('/api/')
    ? `<img class="track-logo" src="${escapeHtml(path)}" alt="${escapeHtml(trackText(lang, 'logo', { name: sender.name }))}" height="40">`
    : '';
  return `<header class="track-sender">${logo}<p class="track-sender-name">${escapeHtml(trackText(lang, 'from', { name: sender.name }))}</p></header>`;
}

/** Feedback is offered once the last drop-off is completed and none was given (docs/tracking.md). */
export function offersFeedback(view: TrackingView): boolean {
  const dropoffs = view.stops.filter((s) => s.kind === 'dropoff');
  return !view.feedback && dropoffs.length > 0 && dropoffs[dropoffs.length - 1]!.status === 'completed';
}
