// Failure reasons as data: the seeded package failure reasons, the platform's stop failure catalogue, and their wire shapes.
import type { Lang, Messages } from '../../http/i18n.ts';

export type PackageInteraction = 'pickup' | 'delivery';
export const PACKAGE_INTERACTIONS: readonly PackageInteraction[] = ['pickup', 'delivery'];

/** A reason as stored: both labels, so every caller reads it in its own language. */
export interface ReasonRecord {
  key: string;
  labels: { en: string; de: string };
  stopTypes: string[];
  packageInteractions: string[];
  noteRequired: boolean;
  triggersReattempt: boolean;
}

export type ReasonCategory = 'package_failure' | 'stop_failure';

export interface ReasonView {
  category: ReasonCategory;
  key: string;
  label: string;
  applies_to: { stop_types: string[]; package_interactions: string[] };
  properties: { note_required: boolean; triggers_reattempt: boolean };
}

/** docs/api-guide.md "Failed stops"'s legacy shape of GET /api/hailing/failure_reasons. */
export interface LegacyReasonView {
  id: string;
  title: string;
  applies_to: string[];
  note_required: boolean;
  triggers_reattempt: boolean;
}

export const toReasonView = (category: ReasonCategory, reason: ReasonRecord, lang: Lang): ReasonView => ({
  category,
  key: reason.key,
  label: reason.labels[lang],
  applies_to: { stop_types: reason.stopTypes, package_interactions: reason.packageInteractions },
  properties: { note_required: reason.noteRequired, triggers_reattempt: reason.triggersReattempt },
});

/** docs/api-guide.md "Failed stops"'s mapping: id ← key, title ← label, applies_to ← applies_to.package_interactions, flags ← properties.*. */
export const toLegacyReasonView = (reason: ReasonView): LegacyReasonView => ({
  id: reason.key,
  title: reason.label,
  applies_to: reason.applies_to.package_interactions,
  note_required: reason.properties.note_required,
  triggers_reattempt: reason.properties.triggers_reattempt,
});

const reason = (
  key: string,
  en: string,
  de: string,
  stopTypes: string[],
  packageInteractions: PackageInteraction[],
  properties: { noteRequired?: boolean; triggersReattempt?: boolean } = {},
): ReasonRecord => ({
  key,
  labels: { en, de },
  stopTypes,
  packageInteractions,
  noteRequired: properties.noteRequired ?? false,
  triggersReattempt: properties.triggersReattempt ?? false,
});

/** What every new tenant starts with; admins edit their copy. */
export const DEFAULT_PACKAGE_FAILURE_REASONS: readonly ReasonRecord[] = [
  reason('recipient_absent', 'Recipient not present', 'Empfänger nicht angetroffen', ['dropoff'], ['delivery'], { triggersReattempt: true }),
  reason('refused', 'Recipient refused the package', 'Annahme verweigert', ['dropoff'], ['delivery']),
  reason('not_ready', 'Package not ready for pickup', 'Paket nicht abholbereit', ['pickup'], ['pickup'], { triggersReattempt: true }),
  reason('damaged', 'Package damaged', 'Paket beschädigt', ['pickup', 'dropoff'], ['pickup', 'delivery'], { noteRequired: true }),
  reason('missing', 'Package missing', 'Paket fehlt', ['pickup', 'dropoff'], ['pickup', 'delivery'], { noteRequired: true }),
  reason('wrong_address', 'Address wrong or not found', 'Adresse falsch oder nicht auffindbar', ['dropoff'], ['delivery'], { noteRequired: true }),
  reason('other', 'Other', 'Sonstiges', ['pickup', 'dropoff'], ['pickup', 'delivery'], { noteRequired: true }),
];

/** An empty `stop_types` means every stop type: services define their own types, the platform catalogue cannot list them. */
const ANY_STOP_TYPE: string[] = [];

/** The platform catalogue of stop failure reasons (the same for every tenant); fail-stop's reason_key is one of these. */
export const STOP_FAILURE_REASONS: readonly ReasonRecord[] = [
  reason('customer_absent', 'Nobody present', 'Niemand angetroffen', ANY_STOP_TYPE, []),
  reason('address_not_found', 'Address not found', 'Adresse nicht gefunden', ANY_STOP_TYPE, []),
  reason('access_denied', 'No access to the location', 'Kein Zugang zum Ort', ANY_STOP_TYPE, []),
  reason('location_closed', 'Location closed', 'Ort geschlossen', ANY_STOP_TYPE, []),
  reason('refused', 'Refused by the customer', 'Vom Kunden abgelehnt', ANY_STOP_TYPE, []),
  reason('unsafe', 'Unsafe to complete', 'Nicht sicher durchführbar', ANY_STOP_TYPE, [], { noteRequired: true }),
  reason('vehicle_problem', 'Vehicle problem', 'Fahrzeugproblem', ANY_STOP_TYPE, [], { noteRequired: true }),
  reason('other', 'Other', 'Sonstiges', ANY_STOP_TYPE, [], { noteRequired: true }),
];

export const findStopFailureReason = (key: string): ReasonRecord | undefined => STOP_FAILURE_REASONS.find((r) => r.key === key);

export const messages: Messages = {
  'reasons.note_required': {
    en: 'The reason {key} needs a note.',
    de: 'Der Grund {key} erfordert eine Notiz.',
  },
  'reasons.not_applicable': {
    en: 'The reason {key} does not apply to a {interaction} at a {stop_type} stop.',
    de: 'Der Grund {key} gilt nicht für {interaction} an einem Stopp vom Typ {stop_type}.',
  },
};

/** Why a reason cannot be used for this failure, as a message key with params; null when it can. */
export function reasonUseProblem(
  reasonRecord: ReasonRecord,
  use: { stopType: string; packageInteraction?: string; note: string | null | undefined },
): { key: string; params: Record<string, string>; code: 'not_applicable' | 'note_required' } | null {
  const applies =
    (reasonRecord.stopTypes.length === 0 || reasonRecord.stopTypes.includes(use.stopType)) &&
    (use.packageInteraction === undefined || reasonRecord.packageInteractions.includes(use.packageInteraction));
  if (!applies) {
    return {
      key: 'reasons.not_applicable',
      params: { key: reasonRecord.key, interaction: use.packageInteraction ?? 'failure', stop_type: use.stopType },
      code: 'not_applicable',
    };
  }
  if (reasonRecord.noteRequired && !use.note?.trim()) return { key: 'reasons.note_required', params: { key: reasonRecord.key }, code: 'note_required' };
  return null;
}
