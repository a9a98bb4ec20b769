// The deprecated completion_requirements.fail (docs/api-guide.md "Deprecations and removals"): headers for every route whose response renders stops.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { markDeprecated, stillServed } from '../../../compat/http.ts';
import type { Deps } from '../../../deps.ts';

/**
 * preHandler for routes that render stops: Deprecation / Sunset / Link while the caller is still served
 * completion_requirements.fail; none once the tenant enforces its sunset and the field is omitted
 * (the omission itself is in stops/views.ts toStopView).
 */
export const stopPayloadDeprecation =
  (deps: Pick<Deps, 'clock'>) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // `view=compact` renders no stops, so nothing deprecated is used.
    if ((request.query as { view?: string } | undefined)?.view === 'compact') return;
    if (request.actor && stillServed(deps, request.actor, 'completion_requirements.fail')) markDeprecated(reply, 'completion_requirements.fail');
  };
