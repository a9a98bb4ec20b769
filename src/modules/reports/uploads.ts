// Request bodies → (report fields, incoming file): JSON with `content_base64`, or multipart/form-data whose `report`
// part (JSON, first) precedes the `file` part, which is handed on as a stream and never buffered whole.
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import type { Static, TSchema } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { Config } from '../../config.ts';
import { AppError, invalidFields } from '../../http/errors.ts';
import { pointerSegment, refuseHostileJson } from '../../http/json-body.ts';
import { validationError, validatorCompiler } from '../../http/validation.ts';
import type { IncomingFile } from './operations/common.ts';
import { FileMeta, ReportCompleteBody, ReportCreateBody, ReportCreateMeta, type FileInputValue, type ReportCreateMetaInput } from './schemas.ts';
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
const FilePartMeta = Type.Object({ file: FileMeta }, { additionalProperties: false });

/** What each upload route's multipart body holds, in the words of its refusals. */
const orderOf = (fieldNames: readonly string[]): string => (fieldNames.includes('report') ? 'send one `report` part (JSON), then one `file` part' : 'send one `file` part');

/** A part after the file: a second file, or anything else, is refused rather than dropped (issue 28). */
const partAfterFile = (name: string): AppError =>
  name === 'file'
    ? invalidFields([{ pointer: '/file', code: 'too_many', detail: 'send one `file` part' }])
    : invalidFields([{ pointer: `/${pointerSegment(name)}`, code: 'unknown_field', detail: 'nothing may follow the `file` part' }]);

/** What went wrong while reading the multipart body, as the client's problem when it is the client's. */
function multipartError(err: unknown, config: Pick<Config, 'reportMaxBytes'>, order: string): unknown {
  const code = (err as { code?: string }).code ?? '';
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(config.reportMaxBytes);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return invalidFields([{ pointer: '', code: 'too_many', detail: order }]);
  }
  // @fastify/multipart's own refusals (a part declared JSON that is not, a prototype name) and busboy's words for a
  // body it cannot read (no boundary in the Content-Type, a malformed part header, an early end).
  if (code.startsWith('FST_') || (err instanceof Error && /^Multipart: |Malformed|Unexpected end|terminated early/i.test(err.message))) {
    return new AppError(400, 'malformed_request', `The multipart body could not be read: ${order}.`);
  }
  return err;
}

/**
 * The fields before the file part, and the file as a stream that ends only once the body has ended with nothing
 * after the file: a second part fails the stream, so the operation storing the file refuses it before it commits.
 */
async function multipartUpload(request: FastifyRequest, config: Pick<Config, 'reportMaxBytes'>, fieldNames: readonly string[]) {
  // One byte past the limit reaches sealFile, whose byte counter answers 413 (busboy alone would only truncate).
  // Three parts: the report, the file, and one more to refuse by name.
  const parts = request.parts({ limits: { fileSize: config.reportMaxBytes + 1, fieldSize: 1024 * 1024, parts: 3 } })[Symbol.asyncIterator]() as AsyncIterator<Multipart>;
  const next = async (): Promise<Multipart | null> => {
    try {
      const step = await parts.next();
      return step.done ? null : step.value;
    } catch (err) {
      throw multipartError(err, config, orderOf(fieldNames));
    }
  };
  const fields: Record<string, unknown> = {};
  for (let part = await next(); part; part = await next()) {
    if (part.type === 'field') {
      if (!fieldNames.includes(part.fieldname)) throw invalidFields([{ pointer: `/${pointerSegment(part.fieldname)}`, code: 'unknown_field', detail: `is not a known part; ${orderOf(fieldNames)}` }]);
      if (Object.hasOwn(fields, part.fieldname)) throw invalidFields([{ pointer: `/${pointerSegment(part.fieldname)}`, code: 'too_many', detail: `send one \`${part.fieldname}\` part` }]);
      fields[part.fieldname] = part.value;
      continue;
    }
    if (part.fieldname !== 'file') throw invalidFields([{ pointer: `/${pointerSegment(part.fieldname)}`, code: 'unknown_field', detail: 'is not a known part; send `file`' }]);
    const meta = check(FilePartMeta, { file: { name: part.filename, content_type: part.mimetype } }).file;
    const first = part.file;
    const stream = Readable.from(
      (async function* () {
        for await (const chunk of first) yield chunk as Buffer;
        const after = await next();
        if (after) throw partAfterFile(after.fieldname);
      })(),
      { objectMode: false },
    );
    return { fields, file: { name: meta.name, contentType: meta.content_type, stream } satisfies IncomingFile };
  }
  return { fields, file: null };
}

/** A JSON body that is missing (no Content-Type, nothing sent) is refused as its schema refuses `undefined`. */
function jsonBody<T extends TSchema>(request: FastifyRequest, schema: T): Static<T> {
  return request.body === undefined ? check(schema, undefined) : (request.body as Static<T>);
}

export type ReportUpload = [ReportCreateMetaInput, IncomingFile | null];

/** POST /api/reports: `{report: {…, file?}}` as JSON, or the `report` part then the `file` part. */
export async function reportUpload(request: FastifyRequest, config: Pick<Config, 'reportMaxBytes'>): Promise<ReportUpload> {
  if (!request.isMultipart()) {
    const { file, ...report } = jsonBody(request, ReportCreateBody).report;
    return [report, file ? fileFromJson(file, config) : null];
  }
  const upload = await multipartUpload(request, config, ['report']);
  if (!Object.hasOwn(upload.fields, 'report')) {
    throw invalidFields([{ pointer: '/report', code: 'required', detail: 'send the `report` part (JSON) before the `file` part' }]);
  }
  if (!upload.file) throw invalidFields([{ pointer: '/file', code: 'required', detail: 'a multipart create needs its `file` part (create without a file with JSON)' }]);
  // @fastify/multipart parses a part sent as application/json itself; a plain text part is parsed here.
  let parsed = upload.fields.report;
  if (typeof parsed === 'string') {
    try {
      parsed = JSON.parse(parsed);
    } catch {
      throw new AppError(400, 'malformed_request', 'The `report` part is not valid JSON.');
    }
  }
  // The part is a JSON body like any other: the parser's checks, then the schema (decision 0116).
  refuseHostileJson({ report: parsed });
  return [check(MultipartReport, { report: parsed }).report, upload.file];
}

/** POST /api/reports/{id}/complete: `{file: {…}}` as JSON, or a multipart `file` part. */
export async function completionUpload(request: FastifyRequest, config: Pick<Config, 'reportMaxBytes'>): Promise<IncomingFile> {
  if (!request.isMultipart()) return fileFromJson(jsonBody(request, ReportCompleteBody).file, config);
  const upload = await multipartUpload(request, config, []);
  if (!upload.file) throw invalidFields([{ pointer: '/file', code: 'required', detail: 'is required' }]);
  return upload.file;
}
