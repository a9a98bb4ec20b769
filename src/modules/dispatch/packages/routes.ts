// Packages routes: lookup, removal from a tour, forced delivery, announce/cancel.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../http/actor.ts';
import type { Deps } from '../../../deps.ts';
import { bodyOptional, EmptyBody, IdParams } from '../../../http/schemas.ts';
import { ForceDeliveryBody, LookedUpPackageEnvelope, PackageEnvelope, PackageLookupBody, PackageTransitionBody, PROOF_BODY_LIMIT } from '../bookings/index.ts';
import { forceDelivery, getPackageProofImage, lookupPackage, removePackageFromTour, transitionPackage } from './operations.ts';
import { proofImageHeaders } from '../proof-files/index.ts';
import { ProofImageParams, PROOF_IMAGE_RESPONSE } from '../proof-files/index.ts';

export const packageRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/hailing/packages/lookup',
      { schema: { tags: ['packages'], operationId: 'lookupPackage', summary: 'Find a package by shortcode or external label', body: PackageLookupBody, response: { 200: LookedUpPackageEnvelope } } },
      async (request) => ({ package: await lookupPackage(deps, actorOf(request), request.body) }),
    );
    app.post(
      '/api/hailing/packages/:id/remove_from_tour',
      { schema: { tags: ['packages'], operationId: 'removePackageFromTour', summary: 'Take a package’s stops off their tour', params: IdParams, body: EmptyBody, response: { 200: PackageEnvelope } }, preValidation: bodyOptional },
      async (request) => ({ package: await removePackageFromTour(deps, actorOf(request), request.params.id) }),
    );
    app.post(
      '/api/hailing/packages/:id/force_delivery',
      { bodyLimit: PROOF_BODY_LIMIT, schema: { tags: ['packages'], operationId: 'forceDeliverPackage', summary: 'Force the delivery of a package', params: IdParams, body: ForceDeliveryBody, response: { 200: PackageEnvelope } } },
      async (request) => ({ package: await forceDelivery(deps, actorOf(request), request.params.id, request.body) }),
    );
    app.get(
      '/api/hailing/packages/:id/proof/:kind',
      { schema: { tags: ['packages'], operationId: 'getPackageProofImage', summary: 'The photo or signature of a forced delivery’s proof (decrypted)', params: ProofImageParams, ...PROOF_IMAGE_RESPONSE } },
      async (request, reply) => {
        const image = await getPackageProofImage(deps, actorOf(request), request.params.id, request.params.kind);
        return reply.headers(proofImageHeaders(image)).send(image.bytes);
      },
    );
    app.post(
      '/api/hailing/packages/:id/transition',
      { schema: { tags: ['packages'], operationId: 'transitionPackage', summary: 'Announce or cancel a package', params: IdParams, body: PackageTransitionBody, response: { 200: PackageEnvelope } } },
      async (request) => ({ package: await transitionPackage(deps, actorOf(request), request.params.id, request.body.event) }),
    );
  };
