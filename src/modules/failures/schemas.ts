// Failures wire schemas: reasons (current, legacy and admin shapes), fail-stop (failure_options render with stops: dispatch).
import { component, withExample } from '../../http/openapi-components.ts';
import { FailureOutcomeName } from '../services/index.ts';
import { Type, type Static } from '@sinclair/typebox';
import { PageMeta } from '../../http/pagination.ts';
import { Nullable } from '../../http/schemas.ts';

const StopType = Type.String({ pattern: '^[a-z_]{1,11}$', description: 'A stop type slug of the tour service.' });
const PackageInteraction = Type.Union([Type.Literal('pickup'), Type.Literal('delivery')]);
export const ReasonKey = Type.String({ pattern: '^[a-z0-9_]{1,64}$' });
const Label = Type.String({ minLength: 1, maxLength: 200 });

const REASON_EXAMPLE = {
  category: 'package_failure' as const,
  key: 'recipient_absent',
  label: 'Recipient not present',
  applies_to: { stop_types: ['dropoff'], package_interactions: ['delivery'] },
  properties: { note_required: false, triggers_reattempt: true },
};

export const Reason = component('Reason', withExample(Type.Object({
  category: Type.Union([Type.Literal('package_failure'), Type.Literal('stop_failure')]),
  key: Type.String(),
  label: Type.String({ description: 'Localized by Accept-Language (en, de).' }),
  applies_to: Type.Object({
    stop_types: Type.Array(Type.String(), { description: 'Stop types the reason applies to; empty means every stop type.' }),
    package_interactions: Type.Array(Type.String(), { description: '`pickup` and/or `delivery`; empty for stop failure reasons.' }),
  }),
  properties: Type.Object({ note_required: Type.Boolean(), triggers_reattempt: Type.Boolean() }),
}), REASON_EXAMPLE));

/** The admin view also carries both labels, which is what an admin edits. */
export const AdminReason = component('AdminReason', withExample(
  Type.Composite([Reason, Type.Object({ labels: Type.Object({ en: Type.String(), de: Type.String() }) })]),
  { ...REASON_EXAMPLE, labels: { en: 'Recipient not present', de: 'Empfänger nicht angetroffen' } },
));

export const ReasonList = Type.Object({ reasons: Type.Array(Reason), meta: PageMeta });
export const AdminReasonList = Type.Object({ reasons: Type.Array(AdminReason), meta: PageMeta });
export const AdminReasonEnvelope = Type.Object({ reason: AdminReason });

export const LegacyReason = withExample(Type.Object({
  id: Type.String(),
  title: Type.String(),
  applies_to: Type.Array(Type.String()),
  note_required: Type.Boolean(),
  triggers_reattempt: Type.Boolean(),
}), { id: 'recipient_absent', title: 'Recipient not present', applies_to: ['dropoff'], note_required: false, triggers_reattempt: true });
export const LegacyReasonList = Type.Object({ failure_reasons: Type.Array(LegacyReason) });

const AppliesToInput = Type.Object(
  {
    stop_types: Type.Array(StopType, { minItems: 1, maxItems: 20, uniqueItems: true }),
    package_interactions: Type.Array(PackageInteraction, { minItems: 1, uniqueItems: true }),
  },
  { additionalProperties: false },
);
const PropertiesInput = Type.Object(
  { note_required: Type.Optional(Type.Boolean()), triggers_reattempt: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const ReasonCreateBody = withExample(Type.Object(
  {
    reason: Type.Object(
      {
        key: ReasonKey,
        labels: Type.Object({ en: Label, de: Type.Optional(Label) }, { additionalProperties: false }),
        applies_to: AppliesToInput,
        properties: Type.Optional(PropertiesInput),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
), {
  reason: {
    key: 'gate_locked',
    labels: { en: 'Gate locked', de: 'Tor verschlossen' },
    applies_to: { stop_types: ['pickup', 'dropoff'], package_interactions: ['pickup', 'delivery'] },
    properties: { note_required: true, triggers_reattempt: true },
  },
});
export type ReasonCreateInput = Static<typeof ReasonCreateBody>['reason'];

export const ReasonUpdateBody = withExample(Type.Object(
  {
    reason: Type.Object(
      {
        labels: Type.Optional(Type.Object({ en: Type.Optional(Label), de: Type.Optional(Label) }, { additionalProperties: false })),
        applies_to: Type.Optional(Type.Partial(AppliesToInput, { additionalProperties: false })),
        properties: Type.Optional(PropertiesInput),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
), { reason: { labels: { de: 'Tor abgeschlossen' }, properties: { note_required: false } } });
export type ReasonUpdateInput = Static<typeof ReasonUpdateBody>['reason'];

export const ReasonKeyParams = Type.Object({ key: ReasonKey });

export const FailStopBody = withExample(Type.Object(
  {
    outcome: Type.Optional(FailureOutcomeName),
    reason_key: Type.Optional(Nullable(ReasonKey)),
    note: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: false },
), { outcome: 'reattempt_later', reason_key: 'recipient_absent', note: 'Nobody at home; card left in the letterbox' });
export type FailStopInput = Static<typeof FailStopBody>;
