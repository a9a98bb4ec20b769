// Request bodies → (report fields, incoming file): JSON with `content_base64`, or multipart/form-data whose `report`
// part (JSON, first) precedes the `file` part, which is handed on as a stream and never buffered whole.
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Static, TSchema } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { Config } from '../../config.ts';
import { AppError, invalidFields } from '../../http/errors.ts';
import { validationError, validatorCompiler } from '../../http/validation.ts';
import type { IncomingFile } from './operations/common.ts';
import { FileMeta, ReportCreateMeta, type FileInputValue, type ReportCreateInput, type ReportCreateMetaInput } from './schemas.ts';
import { tooLarge } from './sealed-files.ts';

/** The JSON body limit of the upload routes: the base64 of REPORT_MAX_BYTES plus room for the other fields. */
export const jsonUploadLimit = (config: Pick<Config, 'reportMaxBytes'>): number => Math.ceil(config.reportMaxBytes / 3) * 4 + 1024 * 1024;

export function fileFromJson(file: FileInputValue, config: Pick<Config, 'reportMaxBytes'>): IncomingFile {
  if (file.content_base64.length % 4 !== 0) {
    throw invalidFields([{ pointer: '/file/content_base64', code: 'invalid_format', detail: 'is not valid base64' }]);
  }
  const bytes = Buffer.from(file.content_base64, 'base64');
  if (bytes.length > config.reportMaxBytes) throw tooLarge(config.reportMaxBytes);
  return { name: file.name, contentType: file.content_type, stream: Readable.from([bytes]) };
}

type Validate = ((data: unknown) => boolean) & { errors?: Parameters<typeof validationError>[1] | null };
const compiled = new Map<TSchema, Validate>();

/** Validates like a route's body schema (same Ajv, same problem+json); each schema is compiled once. */
function check<T extends TSchema>(schema: T, value: unknown): Static<T> {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '' }) as Validate;
    compiled.set(schema, validate);
  }
  if (!validate(value)) throw validationError('body', validate.errors ?? []);
  return value as Static<T>;
}

const MultipartReport = Type.Object({ report: ReportCreateMeta }, { additionalProperties: false });
const MultipartFile = Type.Object({ file: FileMeta }, { additionalProperties: false });

/** The `file` part (and the fields sent before it) of a multipart request, or null when it has none. */
async function filePart(request: FastifyRequest, config: Pick<Config, 'reportMaxBytes'>) {
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    // One byte past the limit reaches sealFile, whose byte counter answers 413 (busboy alone would only truncate).
    part = await request.file({ limits: { fileSize: config.reportMaxBytes + 1, files: 1, fields: 1, fieldSize: 1024 * 1024, parts: 2 } });
  } catch (err) {
    // @fastify/multipart's own refusals (a `report` part declared JSON that is not, too many parts, a broken body).
    const code = (err as { code?: string }).code ?? '';
    if (code.startsWith('FST_')) throw new AppError(400, 'malformed_request', 'The multipart body could not be read: send one `report` part (JSON), then one `file` part.');
    throw err;
  }
  if (!part) return null;
  if (part.fieldname !== 'file') throw invalidFields([{ pointer: `/${part.fieldname}`, code: 'unknown_field', detail: 'is not a known part; send `file`' }]);
  const meta = check(MultipartFile, { file: { name: part.filename, content_type: part.mimetype } }).file;
  return { fields: part.fields, file: { name: meta.name, contentType: meta.content_type, stream: part.file } satisfies IncomingFile };
}

/** POST /api/reports: `{report: {…, file?}}` as JSON, or the `report` part then the optional `file` part. */
export async function reportUpload(request: FastifyRequest, config: Pick<Config, 'reportMaxBytes'>): Promise<[ReportCreateMetaInput, IncomingFile | null]> {
  if (!request.isMultipart()) {
    const { file, ...report } = (request.body as { report: ReportCreateInput }).report;
    return [report, file ? fileFromJson(file, config) : null];
  }
  const upload = await filePart(request, config);
  if (!upload) throw invalidFields([{ pointer: '/file', code: 'required', detail: 'a multipart create needs its `file` part (create without a file with JSON)' }]);
  const field = upload.fields.report as { type?: string; value?: unknown } | undefined;
  if (!field || field.type !== 'field' || field.value === undefined) {
    upload.file.stream.resume();
    throw invalidFields([{ pointer: '/report', code: 'required', detail: 'send the `report` part (JSON) before the `file` part' }]);
  }
  // @fastify/multipart parses a part sent as application/json itself; a plain text part is parsed here.
  let parsed: unknown = field.value;
  try {
    if (typeof field.value === 'string') parsed = JSON.parse(field.value);
  } catch {
    upload.file.stream.resume();
    throw new AppError(400, 'malformed_request', 'The `report` part is not valid JSON.');
  }
  try {
    return [check(MultipartReport, { report: parsed }).report, upload.file];
  } catch (err) {
    upload.file.stream.resume();
    throw err;
  }
}

/** POST /api/reports/{id}/complete: `{file: {…}}` as JSON, or a multipart `file` part. */
export async function completionUpload(request: FastifyRequest, config: Pick<Config, 'reportMaxBytes'>): Promise<IncomingFile> {
  if (!request.isMultipart()) return fileFromJson((request.body as { file: FileInputValue }).file, config);
  const upload = await filePart(request, config);
  if (!upload) throw invalidFields([{ pointer: '/file', code: 'required', detail: 'is required' }]);
  return upload.file;
}
