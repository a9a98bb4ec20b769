// The tracking page's script (decision 1103): no React — the server rendered the content; this re-renders it in the
// browser's time zone, goes live with EventSource, offers a later day where the sender allows it and instructions for
// the driver while the delivery is open, and the rating after it. Small on purpose.
import { offersFeedback, ownStops, pickTrackLang, renderTracking, timeFormatter, trackText, type TrackingView, type TrackMessage } from './view.ts';
import { deliveryDatePart } from './delivery-date.ts';
import { instructionsPart } from './instructions.ts';
import type { StreetMap } from '../map/street-map.ts';
import './track.css';

const token = decodeURIComponent(location.pathname.split('/').pop() ?? '');
const lang = pickTrackLang(document.documentElement.lang);
const time = timeFormatter(lang);
const t = (key: TrackMessage, params?: Record<string, string | number>) => trackText(lang, key, params);
const live = document.getElementById('track-live');
const stopLat = Number(live?.dataset.stopLat);
const stopLng = Number(live?.dataset.stopLng);
const stop = live?.dataset.stopLat !== undefined && Number.isFinite(stopLat) && Number.isFinite(stopLng) ? { lat: stopLat, lng: stopLng } : null;
const main = document.getElementById('track');

const connection = document.createElement('p');
connection.className = 'track-muted';
connection.setAttribute('role', 'status');
const feedback = document.createElement('section');
feedback.className = 'track-feedback';
feedback.setAttribute('aria-labelledby', 'track-feedback-title');
const api = `/api/tracking/${encodeURIComponent(token)}`;
const headers = { accept: 'application/json', 'accept-language': lang };
const instructions = instructionsPart(api, lang, time);
const deliveryDate = deliveryDatePart(api, lang);
main?.append(deliveryDate.element, instructions.element, feedback, connection);

function renderFeedback(view: TrackingView): void {
  if (!offersFeedback(view)) {
    feedback.replaceChildren();
    feedback.hidden = true;
    return;
  }
  if (!feedback.hidden && feedback.childElementCount) return;
  feedback.hidden = false;
  const form = document.createElement('form');
  const title = document.createElement('h2');
  title.id = 'track-feedback-title';
  title.textContent = t('feedbackTitle');
  const fieldset = document.createElement('fieldset');
  const legend = document.createElement('legend');
  legend.textContent = t('rating');
  fieldset.append(legend);
  for (let rating = 1; rating <= 5; rating++) {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = 'rating';
    input.value = String(rating);
    input.required = true;
    label.append(input, ` ${t('stars', { count: rating })}`);
    fieldset.append(label);
  }
  const commentLabel = document.createElement('label');
  commentLabel.htmlFor = 'track-comment';
  commentLabel.textContent = t('comment');
  const comment = document.createElement('textarea');
  comment.id = 'track-comment';
  comment.maxLength = 2000;
  comment.rows = 3;
  const button = document.createElement('button');
  button.type = 'submit';
  button.textContent = t('send');
  const error = document.createElement('p');
  error.className = 'track-failure';
  error.setAttribute('role', 'alert');
  form.append(fieldset, commentLabel, comment, button, error);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const rating = Number(new FormData(form).get('rating'));
    button.disabled = true;
    void fetch(`${api}/feedback`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ feedback: { rating, ...(comment.value.trim() ? { comment: comment.value } : {}) } }),
    })
      .then(async (res) => {
        const body = (await res.json()) as { tracking?: TrackingView; detail?: string };
        if (!res.ok || !body.tracking) throw new Error(body.detail ?? String(res.status));
        show(body.tracking);
      })
      .catch((err: unknown) => {
        error.textContent = t('failedSend', { reason: err instanceof Error ? err.message : String(err) });
        button.disabled = false;
      });
  });
  feedback.replaceChildren(title, form);
}

// The street map (decision 1721): MapLibre in its own chunk, loaded only when the page knows the stop; the page works
// without it (the server-rendered status, times and small map stay).
let streetMap: StreetMap | null = null;
let lastView: TrackingView | null = null;

function show(view: TrackingView): void {
  lastView = view;
  if (live) live.innerHTML = renderTracking(view, lang, time, stop, { streetMap: streetMap !== null });
  streetMap?.show(view.driver?.position ?? null);
  renderFeedback(view);
  instructions.stopOpen(ownStops(view).some((s) => !['completed', 'failed', 'cancelled'].includes(s.status)));
  deliveryDate.changed(view.stops.map((s) => s.status).join());
}

async function startStreetMap(stop: { lat: number; lng: number }): Promise<void> {
  const { streetsCover } = await import('../map/style.ts');
  if (!live || !(await streetsCover(stop))) return;
  const figure = document.createElement('figure');
  figure.className = 'track-street-map';
  const canvas = document.createElement('div');
  canvas.className = 'map-canvas';
  const caption = document.createElement('figcaption');
  caption.className = 'track-muted';
  caption.textContent = t('streetMap');
  figure.append(canvas, caption);
  live.after(figure);
  void import('../map/street-map.ts')
    .then(({ createStreetMap }) => createStreetMap(canvas, stop, t('streetMapLabel')))
    .then(async (created) => {
      streetMap = created;
      // The read again, unless the live stream brought it already: the driver's position is in it, not in the HTML.
      const view = lastView ?? ((await fetch(api, { headers }).then((res) => (res.ok ? res.json() : null))) as { tracking: TrackingView } | null)?.tracking;
      if (view) show(view);
    })
    .catch(() => {
      canvas.remove();
      caption.textContent = t('streetMapFailed');
    });
}
if (stop) void startStreetMap(stop);

if (live && token) {
  void instructions.load();
  void deliveryDate.load();
  const source = new EventSource(`${api}/live`);
  source.addEventListener('tracking', (event) => {
    connection.textContent = t('live');
    show((JSON.parse((event as MessageEvent<string>).data) as { tracking: TrackingView }).tracking);
  });
  source.addEventListener('error', () => {
    connection.textContent = t('offline');
  });
}
