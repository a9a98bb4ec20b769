// A tour's name a person reads (issue 37, decision 1603): the dispatcher's label when the tour has one, else its
// driver's name and its day on the service area's clock — never an id. The one place every page names a tour by.

/** What naming a tour needs of it; `label` is the dispatcher's name for the tour (absent on servers without it). */
export interface NameableTour {
  label?: string | null;
  driver_id: string | null;
  scheduled_at: string | null;
  created_at: string;
}

export interface TourNaming {
  driverName: (id: string) => string | undefined;
  /** The day in the page's language and the tour's service area zone. */
  day: (iso: string) => string;
  /** Said instead of a driver's name while the tour has none. */
  noDriver: string;
}

export function tourName(tour: NameableTour, naming: TourNaming): string {
  const label = tour.label?.trim();
  if (label) return label;
  const who = (tour.driver_id ? naming.driverName(tour.driver_id) : undefined) ?? naming.noDriver;
  return `${who} · ${naming.day(tour.scheduled_at ?? tour.created_at)}`;
}
