// Tour service and scheduling config wire schemas (CONTRACT.md §5 Service and scheduling config).
import { component, StringEnum } from '../../http/openapi-components.ts';
import { deprecatedItem } from '../../http/openapi.ts';
import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery } from '../../http/pagination.ts';
import { IdParams, ListOf, Nullable, Timestamp, Uuid } from '../../http/schemas.ts';

export const FAILURE_OUTCOMES = ['skip_recovery', 'reattempt_later', 'reattempt_now', 'return_later', 'return_now'] as const;

export const FailureOutcomeName = component('FailureOutcome', StringEnum(FAILURE_OUTCOMES));
export const TipDistributionStrategyName = component('TipDistributionStrategy', StringEnum(['noop', 'completed_dropoffs_on_tour']));
export const DispatchMode = component('DispatchMode', StringEnum(['manual', 'auto']));
export const DeliveryProofName = component('DeliveryProofKind', StringEnum(['signature', 'photo', 'recipient_name', 'note']));
/** Slugs of at most 11 characters keep `A-<type>-<uuid>` within the 50-character group limit. */
export const StopType = Type.String({ pattern: '^[a-z_]{1,11}$' });

const OutcomeList = Type.Array(FailureOutcomeName, { uniqueItems: true, maxItems: FAILURE_OUTCOMES.length });

const serviceFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  service_area_id: Uuid,
  dispatch_mode: DispatchMode,
  tip_distribution_strategy: TipDistributionStrategyName,
  stop_types: Type.Array(StopType, { minItems: 1, maxItems: 50, uniqueItems: true }),
  return_stop_type: Nullable(StopType),
  max_stops_per_booking: Type.Integer({ minimum: 2, maximum: 1000 }),
  max_stops_per_tour: Type.Integer({ minimum: 1, maximum: 5000 }),
  // Roles left out keep their current (on create: default) outcomes.
  failure_outcomes: Type.Object(
    { admin: Type.Optional(OutcomeList), manager: Type.Optional(OutcomeList), driver: Type.Optional(OutcomeList) },
    { additionalProperties: false },
  ),
  force_delivery_proof: Type.Array(DeliveryProofName, { uniqueItems: true, maxItems: 4 }),
  scheduling_config_id: Nullable(Uuid),
};

const ServiceFields = Type.Object(serviceFields);
const REQUIRED_ON_CREATE = ['name', 'service_area_id'] as const;

export const ServiceCreate = Type.Composite(
  [Type.Pick(ServiceFields, REQUIRED_ON_CREATE), Type.Partial(Type.Omit(ServiceFields, REQUIRED_ON_CREATE))],
  { additionalProperties: false },
);
export type ServiceCreateInput = Static<typeof ServiceCreate>;

export const ServiceUpdate = Type.Partial(ServiceFields, { additionalProperties: false });
export type ServiceUpdateInput = Static<typeof ServiceUpdate>;

const OutcomesOut = Type.Array(FailureOutcomeName);

export const Service = component('Service', Type.Object({
  id: Uuid,
  name: Type.String(),
  service_area_id: Uuid,
  dispatch_mode: DispatchMode,
  tip_distribution_strategy: TipDistributionStrategyName,
  stop_types: Type.Array(Type.String()),
  return_stop_type: Nullable(Type.String()),
  max_stops_per_booking: Type.Integer(),
  max_stops_per_tour: Type.Integer(),
  failure_outcomes: Type.Object({ admin: OutcomesOut, manager: OutcomesOut, driver: OutcomesOut }),
  force_delivery_proof: Type.Array(DeliveryProofName),
  scheduling_config_id: Nullable(Uuid),
  created_at: Timestamp,
}));

const strict = { additionalProperties: false };
export const ServiceCreateBody = Type.Object({ service: ServiceCreate }, strict);
export const ServiceUpdateBody = Type.Object({ service: ServiceUpdate }, strict);
export const ServiceResponse = Type.Object({ service: Service });
export const ServiceList = ListOf('services', Service);

const SchedulingMode = component('SchedulingMode', StringEnum(['instant', 'scheduled']));
const schedulingConfigFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  mode: SchedulingMode,
  claim_window_seconds: Type.Integer({ minimum: 60, maximum: 7 * 24 * 3600 }),
  /** Deprecated: accepted, ignored, never stored. */
  gradual_rollout_frequency_seconds: deprecatedItem('gradual_rollout_frequency_seconds', Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
};
const SchedulingConfigFields = Type.Object(schedulingConfigFields);

export const SchedulingConfigCreate = Type.Composite(
  [Type.Pick(SchedulingConfigFields, ['name']), Type.Partial(Type.Omit(SchedulingConfigFields, ['name']))],
  { additionalProperties: false },
);
export type SchedulingConfigCreateInput = Static<typeof SchedulingConfigCreate>;
export const SchedulingConfigUpdate = Type.Partial(SchedulingConfigFields, { additionalProperties: false });
export type SchedulingConfigUpdateInput = Static<typeof SchedulingConfigUpdate>;

export const SchedulingConfig = component('SchedulingConfig', Type.Object({
  id: Uuid,
  name: Type.String(),
  mode: SchedulingMode,
  claim_window_seconds: Type.Integer(),
  gradual_rollout_frequency_seconds: Type.Optional(deprecatedItem('gradual_rollout_frequency_seconds', Type.Null())),
  created_at: Timestamp,
}));
export const SchedulingConfigCreateBody = Type.Object({ scheduling_config: SchedulingConfigCreate }, strict);
export const SchedulingConfigUpdateBody = Type.Object({ scheduling_config: SchedulingConfigUpdate }, strict);
export const SchedulingConfigResponse = Type.Object({ scheduling_config: SchedulingConfig });
export const SchedulingConfigList = ListOf('scheduling_configs', SchedulingConfig);

export const ListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });
export { IdParams };
