// The drivers on the map: a 2D canvas above MapLibre's WebGL canvas (decision 1021). Handed to a GeoJSON source,
// 500 moving drivers made MapLibre re-tile them in its worker and repaint the whole map on every draw; here a draw
// projects each position and copies one small pre-drawn marker per driver, and the map repaints only when its own
// data or the view changes.
import type { Map as MapLibreMap } from 'maplibre-gl';
import { MAP_COLORS } from './style.ts';

export type DriverSignal = 'live' | 'stale' | 'lost';

export interface DriverMarker {
  driverId: string;
  tourId: string;
  lng: number;
  lat: number;
  signal: DriverSignal;
  selected: boolean;
}

export interface DriversOverlay {
  /** Draws these drivers now, and again (re-projected) whenever the view moves or the map is resized. */
  draw(markers: DriverMarker[]): void;
  /** The topmost driver drawn under a point of the map (CSS pixels from its top left corner), if any. */
  pick(x: number, y: number): DriverMarker | null;
  remove(): void;
}

// The look of the circle layer the drivers had: a dot of radius 7 (10 when selected) inside a 3 px ring, white or,
// for the selected tour's driver, the selection colour.
const RADIUS = 7;
const SELECTED_RADIUS = 10;
const RING = 3;
// A pointer this close to a marker's edge still picks it: markers move, and a finger is not a mouse.
const PICK_SLOP = 3;

/** Where a draw put each marker, in drawing order (the last one is on top). */
export interface Placed {
  x: number[];
  y: number[];
  markers: DriverMarker[];
}

export const outerRadius = (marker: Pick<DriverMarker, 'selected'>): number => (marker.selected ? SELECTED_RADIUS : RADIUS) + RING;

/** The topmost placed marker within reach of (x, y): markers drawn later cover earlier ones, so they win. */
export function pickPlaced(placed: Placed, x: number, y: number): DriverMarker | null {
  for (let i = placed.markers.length - 1; i >= 0; i--) {
    const marker = placed.markers[i]!;
    const reach = outerRadius(marker) + PICK_SLOP;
    const dx = placed.x[i]! - x;
    const dy = placed.y[i]! - y;
    if (dx * dx + dy * dy <= reach * reach) return marker;
  }
  return null;
}

/** Markers in drawing order: the selected tour's driver last, so it is never hidden under another. */
export function drawingOrder(markers: DriverMarker[]): DriverMarker[] {
  return [...markers.filter((marker) => !marker.selected), ...markers.filter((marker) => marker.selected)];
}

interface Sprite {
  canvas: HTMLCanvasElement;
  /** Device pixels from the sprite's corner to the marker's centre. */
  half: number;
}

/** One marker drawn once per look and pixel ratio; each draw then copies it (cheaper than paths, in software too). */
function makeSprite(signal: DriverSignal, selected: boolean, ratio: number): Sprite {
  const outer = outerRadius({ selected }) * ratio;
  const half = Math.ceil(outer) + 1;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = half * 2;
  const context = canvas.getContext('2d')!;
  context.fillStyle = selected ? MAP_COLORS.selected : '#ffffff';
  context.beginPath();
  context.arc(half, half, outer, 0, 2 * Math.PI);
  context.fill();
  context.fillStyle = MAP_COLORS[signal];
  context.beginPath();
  context.arc(half, half, outer - RING * ratio, 0, 2 * Math.PI);
  context.fill();
  return { canvas, half };
}

/** Puts the overlay into the map's canvas container, above the map's canvas and below its controls. */
export function addDriversOverlay(map: MapLibreMap): DriversOverlay {
  const canvas = document.createElement('canvas');
  // Sized at the first draw: a map that never shows drivers (the plan page's) composites no extra layer.
  canvas.width = canvas.height = 0;
  canvas.setAttribute('aria-hidden', 'true'); // the list beside the map says the same in words
  canvas.className = 'map-drivers';
  // Styles through the CSSOM (the page's CSP allows no inline style attribute); pointer events reach the map, which
  // pans and zooms as before and asks pick() on a click.
  Object.assign(canvas.style, { position: 'absolute', left: '0', top: '0', pointerEvents: 'none' });
  map.getCanvasContainer().appendChild(canvas);
  const context = canvas.getContext('2d')!;

  let markers: DriverMarker[] = [];
  let placed: Placed = { x: [], y: [], markers: [] };
  let sprites = new Map<string, Sprite>();
  let spriteRatio = 0;

  const render = () => {
    const container = map.getContainer();
    const [cssWidth, cssHeight] = [container.clientWidth, container.clientHeight];
    const ratio = window.devicePixelRatio || 1;
    const width = Math.round(cssWidth * ratio);
    const height = Math.round(cssHeight * ratio);
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
      canvas.style.width = `${cssWidth}px`;
      canvas.style.height = `${cssHeight}px`;
    } else {
      context.clearRect(0, 0, width, height);
    }
    if (ratio !== spriteRatio) {
      sprites = new Map();
      spriteRatio = ratio;
    }
    const next: Placed = { x: [], y: [], markers: [] };
    for (const marker of drawingOrder(markers)) {
      const point = map.project([marker.lng, marker.lat]);
      const reach = outerRadius(marker);
      if (point.x < -reach || point.y < -reach || point.x > cssWidth + reach || point.y > cssHeight + reach) continue;
      const key = `${marker.signal}:${marker.selected}`;
      let sprite = sprites.get(key);
      if (!sprite) sprites.set(key, (sprite = makeSprite(marker.signal, marker.selected, ratio)));
      // Whole device pixels: a copy that needs no resampling.
      context.drawImage(sprite.canvas, Math.round(point.x * ratio) - sprite.half, Math.round(point.y * ratio) - sprite.half);
      next.x.push(point.x);
      next.y.push(point.y);
      next.markers.push(marker);
    }
    placed = next;
  };
  const onView = () => {
    if (markers.length || placed.markers.length) render();
  };
  // 'move' fires inside the frame MapLibre renders the new view in, so the markers move with the map.
  map.on('move', onView);
  map.on('resize', onView);

  return {
    draw(next) {
      markers = next;
      render();
    },
    pick: (x, y) => pickPlaced(placed, x, y),
    remove() {
      map.off('move', onView);
      map.off('resize', onView);
      canvas.remove();
    },
  };
}
