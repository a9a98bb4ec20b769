// Reports wire schemas (CONTRACT.md §8).
import { Type, type Static } from '@sinclair/typebox';
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

export const ReportCreateBody = Type.Object({ report: ReportCreate }, strict);
export const ReportCompleteBody = Type.Object({ file: FileInput }, strict);
export const ReportFailBody = Type.Object({ reason: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))) }, strict);

export const Report = Type.Object({
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

export const Activity = Type.Object({
  id: Uuid,
  user_id: Uuid,
  action: Type.Literal('download'),
  outcome: Type.Union(['downloaded', 'not_visible', 'not_ready', 'expired', 'corrupt'].map((o) => Type.Literal(o))),
  at: Timestamp,
});
export const ActivityList = ListOf('activity', Activity);
export const ActivityQuery = Type.Object({ ...PaginationQuery }, strict);

export const GrantParams = Type.Object({ id: Uuid, index: Type.Integer({ minimum: 0, maximum: 49 }) });
export { IdParams };
