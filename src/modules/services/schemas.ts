// Tour service and scheduling config wire schemas (docs/api-guide.md "Tour services and scheduling configs").
import { component, StringEnum, withExample } from '../../http/openapi-components.ts';
import { EXAMPLE_AT, EXAMPLE_ID as ID } from '../../http/openapi-examples.ts';
import { deprecatedItem } from '../../http/openapi.ts';
import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery } from '../../http/pagination.ts';
import { IdParams, ListOf, Nullable, Timestamp, Uuid } from '../../http/schemas.ts';
import { FAILURE_OUTCOMES } from '../../shared/domain-constants.ts';

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

const SERVICE_EXAMPLE = {
  name: 'Same-day parcels',
  service_area_id: ID.serviceArea,
  dispatch_mode: 'manual' as const,
  tip_distribution_strategy: 'completed_dropoffs_on_tour' as const,
  stop_types: ['pickup', 'dropoff', 'return'],
  return_stop_type: 'return',
  max_stops_per_booking: 25,
  max_stops_per_tour: 100,
  failure_outcomes: {
    admin: [...FAILURE_OUTCOMES],
    manager: [...FAILURE_OUTCOMES],
    driver: ['skip_recovery' as const, 'reattempt_later' as const, 'return_later' as const],
  },
  force_delivery_proof: ['recipient_name' as const],
  scheduling_config_id: ID.schedulingConfig,
};

export const Service = component('Service', withExample(Type.Object({
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
}), { id: ID.service, ...SERVICE_EXAMPLE, created_at: EXAMPLE_AT }));

const strict = { additionalProperties: false };
export const ServiceCreateBody = withExample(Type.Object({ service: ServiceCreate }, strict), { service: SERVICE_EXAMPLE });
export const ServiceUpdateBody = withExample(Type.Object({ service: ServiceUpdate }, strict), { service: { dispatch_mode: 'auto', max_stops_per_tour: 60 } });
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

export const SchedulingConfig = component('SchedulingConfig', withExample(Type.Object({
  id: Uuid,
  name: Type.String(),
  mode: SchedulingMode,
  claim_window_seconds: Type.Integer(),
  gradual_rollout_frequency_seconds: Type.Optional(deprecatedItem('gradual_rollout_frequency_seconds', Type.Null())),
  created_at: Timestamp,
}), { id: ID.schedulingConfig, name: 'Same day', mode: 'instant', claim_window_seconds: 900, gradual_rollout_frequency_seconds: null, created_at: EXAMPLE_AT }));
export const SchedulingConfigCreateBody = withExample(Type.Object({ scheduling_config: SchedulingConfigCreate }, strict), {
  scheduling_config: { name: 'Same day', mode: 'instant', claim_window_seconds: 900 },
});
export const SchedulingConfigUpdateBody = withExample(Type.Object({ scheduling_config: SchedulingConfigUpdate }, strict), {
  scheduling_config: { claim_window_seconds: 1800 },
});
export const SchedulingConfigResponse = Type.Object({ scheduling_config: SchedulingConfig });
export const SchedulingConfigList = ListOf('scheduling_configs', SchedulingConfig);

export const ListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });
export { IdParams };
