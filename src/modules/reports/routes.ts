// Reports routes (docs/api-guide.md "Reports"): create, complete, fail, list, show, download, activity, revoke a grant.
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf } from '../../http/actor.ts';
import type { Deps } from '../../deps.ts';
import { setNextLink } from '../../http/pagination.ts';
import { bodyOptional } from '../../http/schemas.ts';
import { MASTER_KEY_MISSING, masterKeyFor } from '../../crypto/master-key.ts';
import { downloadReport } from './operations/download-report.ts';
import { createReport } from './operations/create-report.ts';
import { listReportActivity, getReport, listReports } from './operations/read-reports.ts';
import { revokeReportGrant } from './operations/revoke-grant.ts';
import { completeReport, failReport } from './operations/transition-report.ts';
import { ActivityList, ActivityQuery, GrantParams, IdParams, ReportCompleteBody, ReportCompleteForm, ReportCreateBody, ReportCreateForm, ReportFailBody, ReportList, ReportListQuery, ReportResponse } from './schemas.ts';
import { completionUpload, jsonUploadLimit, reportUpload } from './uploads.ts';

const tags = ['reports'];
const multipartNote = ' (JSON with the file in base64, or multipart/form-data)';
/** A download is the file in the content type it was uploaded with (CSV and PDF the common ones): documented as any. */
const FILE_TYPES = ['text/csv', 'application/pdf', 'application/octet-stream', '*/*'];

export const reportRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    if (!masterKeyFor(deps.config)) deps.log.warn(MASTER_KEY_MISSING);
    // Registered in this plugin only: no other route accepts multipart bodies.
    await app.register(fastifyMultipart, { throwFileSizeLimit: true });
    // Upload routes take a body as large as a report file (base64), whatever the default JSON limit.
    const bodyLimit = jsonUploadLimit(deps.config);

    app.post(
      '/api/reports',
      {
        bodyLimit,
        config: { documentedBodies: { 'multipart/form-data': { schema: ReportCreateForm } } },
        schema: { tags, operationId: 'createReport', summary: 'Create a report' + multipartNote, body: { content: { 'application/json': { schema: ReportCreateBody } } }, response: { 201: ReportResponse } },
      },
      async (request, reply) => reply.status(201).send({ report: await createReport(deps, actorOf(request), () => reportUpload(request, deps.config)) }),
    );

    app.post(
      '/api/reports/:id/complete',
      {
        bodyLimit,
        config: { documentedBodies: { 'multipart/form-data': { schema: ReportCompleteForm } } },
        schema: { tags, operationId: 'completeReport', summary: 'Supply the file of a pending report' + multipartNote, params: IdParams, body: { content: { 'application/json': { schema: ReportCompleteBody } } }, response: { 200: ReportResponse } },
      },
      async (request) => ({ report: await completeReport(deps, actorOf(request), request.params.id, () => completionUpload(request, deps.config)) }),
    );

    app.post(
      '/api/reports/:id/fail',
      { schema: { tags, operationId: 'failReport', summary: 'Fail a pending report', params: IdParams, body: ReportFailBody, response: { 200: ReportResponse } }, preValidation: bodyOptional },
      async (request) => ({ report: await failReport(deps, actorOf(request), request.params.id, request.body.reason ?? null) }),
    );

    app.get('/api/reports', { schema: { tags, operationId: 'listReports', summary: 'List the reports shared with you (each tag narrows)', querystring: ReportListQuery, response: { 200: ReportList } } }, async (request, reply) => {
      const page = await listReports(deps, actorOf(request), request.query);
      setNextLink(request, reply, page.meta.next_cursor);
      return { reports: page.items, meta: page.meta };
    });

    app.get('/api/reports/:id', { schema: { tags, operationId: 'getReport', summary: 'Show a report', params: IdParams, response: { 200: ReportResponse } } }, async (request) => ({
      report: await getReport(deps, actorOf(request), request.params.id),
    }));

    app.get(
      '/api/reports/:id/download',
      { schema: { tags, operationId: 'downloadReport', summary: 'Download the decrypted file', params: IdParams, produces: FILE_TYPES, response: { 200: Type.Unsafe({ description: 'The file, in the content type it was uploaded with' }) } } },
      async (request, reply) => {
        const download = await downloadReport(deps, actorOf(request), request.params.id);
        return reply.headers(download.headers).send(download.stream);
      },
    );

    app.get(
      '/api/reports/:id/activity',
      { schema: { tags, operationId: 'listReportActivity', summary: 'Downloads and refused attempts (creator and admins)', params: IdParams, querystring: ActivityQuery, response: { 200: ActivityList } } },
      async (request, reply) => {
        const page = await listReportActivity(deps, actorOf(request), request.params.id, request.query);
        setNextLink(request, reply, page.meta.next_cursor);
        return { activity: page.items, meta: page.meta };
      },
    );

    app.delete('/api/reports/:id/grants/:index', { schema: { tags, operationId: 'revokeReportGrant', summary: 'Revoke one grant (at once)', params: GrantParams, response: { 200: ReportResponse } } }, async (request) => ({
      report: await revokeReportGrant(deps, actorOf(request), request.params.id, request.params.index),
    }));
  };
