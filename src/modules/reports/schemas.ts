// Reports wire schemas (docs/api-guide.md "Reports").
import { Type, type Static } from '@sinclair/typebox';
import { withExample } from '../../http/openapi-components.ts';
import { EXAMPLE_AT, EXAMPLE_ID as ID } from '../../http/openapi-examples.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import { IdParams, ListOf, Nullable, Timestamp, Uuid } from '../../http/schemas.ts';

const strict = { additionalProperties: false };

export const GrantSchema = Type.Union([
  Type.Object({ type: Type.Literal('all_admins') }, strict),
  Type.Object({ type: Type.Literal('organization_managers'), organization_id: Uuid }, strict),
  Type.Object({ type: Type.Literal('user'), user_id: Uuid }, strict),
]);

/** A file name as given; path separators and control characters are refused rather than silently changed. */
const FileName = Type.String({ minLength: 1, maxLength: 255, pattern: '^[^/\\\\\\u0000-\\u001f\\u007f]+$' });
const ContentType = Type.String({ minLength: 3, maxLength: 255, pattern: '^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+( *;[ -~]*)?$' });

export const FileInput = Type.Object(
  {
    name: FileName,
    content_type: ContentType,
    content_base64: Type.String({ pattern: '^[A-Za-z0-9+/]*={0,2}$', description: 'The file, base64-encoded (or send multipart/form-data).' }),
  },
  strict,
);
export type FileInputValue = Static<typeof FileInput>;

/** The `file` of a multipart upload carries its name and type in the part headers. */
export const FileMeta = Type.Object({ name: FileName, content_type: ContentType }, strict);

const reportFields = {
  title: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20, uniqueItems: true })),
  notify_by_email: Type.Optional(Type.Boolean()),
  expires_at: Type.Optional(Timestamp),
  grants: Type.Array(GrantSchema, { minItems: 1, maxItems: 50 }),
};

export const ReportCreate = Type.Object({ ...reportFields, file: Type.Optional(FileInput) }, strict);
export type ReportCreateInput = Static<typeof ReportCreate>;
/** The `report` part of a multipart create: the same fields, the file comes as its own part. */
export const ReportCreateMeta = Type.Object(reportFields, strict);
export type ReportCreateMetaInput = Static<typeof ReportCreateMeta>;

// The multipart forms of the upload routes, for the document only: uploads.ts reads and validates the parts itself
// (decision 0161). A part's JSON is text on the wire, so `report` is a string whose content is that JSON.
const FilePart = Type.String({
  contentMediaType: 'application/octet-stream',
  description: "The file's bytes; the part's `filename` and `Content-Type` are the file's name and type.",
});
const CSV_TEXT = 'tour_id,stops\n0193b2e4,12\n';
export const ReportCreateForm = withExample(
  Type.Object(
    {
      report: Type.String({
        contentMediaType: 'application/json',
        contentSchema: ReportCreateMeta,
        description: "The report's fields as JSON (the JSON body's `report` without `file`); send it before `file`.",
      }),
      file: FilePart,
    },
    { description: 'Two parts, in this order: `report`, then `file`. The file streams to encrypted storage (limit REPORT_MAX_BYTES).' },
  ),
  { report: JSON.stringify({ title: 'Tours in November', grants: [{ type: 'all_admins' }] }), file: CSV_TEXT },
);
export const ReportCompleteForm = withExample(
  Type.Object({ file: FilePart }, { description: 'One part, `file`, streamed to encrypted storage (limit REPORT_MAX_BYTES).' }),
  { file: CSV_TEXT },
);

const CSV_FILE = { name: 'november-tours.csv', content_type: 'text/csv', content_base64: 'dG91cl9pZCxzdG9wcwowMTkzYjJlNCwxMgo=' };
export const ReportCreateBody = withExample(Type.Object({ report: ReportCreate }, strict), {
  report: {
    title: 'Tours in November',
    description: 'Completed tours per driver',
    tags: ['monthly', 'tours'],
    notify_by_email: true,
    grants: [{ type: 'organization_managers', organization_id: ID.organization }],
    file: CSV_FILE,
  },
});
export const ReportCompleteBody = withExample(Type.Object({ file: FileInput }, strict), { file: CSV_FILE });
export const ReportFailBody = withExample(Type.Object({ reason: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))) }, strict), {
  reason: 'The export job ran out of memory',
});

export const Report = withExample(Type.Object({
  id: Uuid,
  title: Type.String(),
  description: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('pending'), Type.Literal('ready'), Type.Literal('failed'), Type.Literal('expired')]),
  failure_reason: Nullable(Type.String()),
  notify_by_email: Type.Boolean(),
  grants: Type.Array(GrantSchema),
  file: Nullable(Type.Object({ name: Type.String(), content_type: Type.String(), size_bytes: Type.Integer(), sha256: Type.String() })),
  expires_at: Timestamp,
  created_by_id: Uuid,
  created_at: Timestamp,
  ready_at: Nullable(Timestamp),
}), {
  id: ID.report,
  title: 'Tours in November',
  description: 'Completed tours per driver',
  tags: ['monthly', 'tours'],
  status: 'ready',
  failure_reason: null,
  notify_by_email: true,
  grants: [{ type: 'organization_managers', organization_id: ID.organization }],
  file: { name: 'november-tours.csv', content_type: 'text/csv', size_bytes: 26, sha256: 'ae20bf731244ade0b2d98a18447296c14cfc0983e263aeaf0adf637e4f0eac02' },
  expires_at: '2026-12-22T13:05:00.000Z',
  created_by_id: ID.admin,
  created_at: EXAMPLE_AT,
  ready_at: EXAMPLE_AT,
});

export const ReportResponse = Type.Object({ report: Report });
export const ReportList = ListOf('reports', Report);

export const ReportListQuery = Type.Object(
  {
    ...PaginationQuery,
    filters: Type.Optional(
      Type.Object({ tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20 })) }, strict),
    ),
  },
  strict,
);
export type ReportListFilters = NonNullable<Static<typeof ReportListQuery>['filters']>;

export const Activity = withExample(Type.Object({
  id: Uuid,
  user_id: Uuid,
  action: Type.Literal('download'),
  outcome: Type.Union(['downloaded', 'not_visible', 'not_ready', 'expired', 'corrupt'].map((o) => Type.Literal(o))),
  at: Timestamp,
}), { id: ID.event, user_id: ID.manager, action: 'download', outcome: 'downloaded', at: '2026-11-22T14:00:00.000Z' });
export const ActivityList = ListOf('activity', Activity);
export const ActivityQuery = Type.Object({ ...PaginationQuery }, strict);

export const GrantParams = Type.Object({ id: Uuid, index: Type.Integer({ minimum: 0, maximum: 49 }) });
export { IdParams };
