// The OpenAPI document's examples: every request body and every JSON success response has one, and every example in
// the document (media examples and schema `examples`) is valid against its schema (decision 0160).
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { openapiDocument } from '../../scripts/openapi.ts';
import { exampleOf } from '../../src/http/openapi-examples.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the document is read as JSON
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const DOC_ID = 'https://tourbook.dev/openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const pointerOf = (path: readonly string[]) => path.map((key) => `/${escape(key)}`).join('');

let doc: Json;
let ajv: Ajv2020;

interface Found {
  where: string;
  pointer: string;
  schemaPointer: string;
  value: unknown;
}

/** Every example in the document with the schema it claims to match: media examples and schema `examples` entries. */
function examplesIn(): Found[] {
  const found: Found[] = [];
  const visit = (node: unknown, path: string[], where: string): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, [...path, String(i)], where));
    if (!node || typeof node !== 'object') return;
    const n = node as Json;
    const isMedia = path.at(-2) === 'content' && 'schema' in n;
    if (isMedia && n.example !== undefined) found.push({ where, pointer: pointerOf([...path, 'example']), schemaPointer: pointerOf([...path, 'schema']), value: n.example });
    if (isMedia && n.examples && typeof n.examples === 'object') {
      for (const [name, entry] of Object.entries(n.examples as Json)) {
        found.push({ where, pointer: pointerOf([...path, 'examples', name, 'value']), schemaPointer: pointerOf([...path, 'schema']), value: (entry as Json).value });
      }
    }
    // A schema's own `examples` (JSON Schema 2020-12): an array next to `type`, `properties` or `$ref`.
    if (!isMedia && Array.isArray(n.examples) && ('type' in n || 'properties' in n || '$ref' in n || 'anyOf' in n)) {
      n.examples.forEach((value: unknown, i: number) => found.push({ where, pointer: pointerOf([...path, 'examples', String(i)]), schemaPointer: pointerOf(path), value }));
    }
    for (const [key, value] of Object.entries(n)) {
      if (key === 'example' || (key === 'examples' && Array.isArray(value))) continue;
      const inOperation = path.length === 2 && path[0] === 'paths' && METHODS.includes(key);
      visit(value, [...path, key], inOperation ? String((value as Json).operationId) : where);
    }
  };
  visit(doc, [], 'document');
  return found;
}

beforeAll(async () => {
  doc = await openapiDocument();
  ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
});

describe('the OpenAPI examples', () => {
  it('gives every request body and every JSON success response an example', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const method of METHODS) {
        const op = (item as Json)[method] as Json | undefined;
        if (!op) continue;
        const where = (status: string, type: string) => `${op.operationId} ${status} ${type}`;
        for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Json)) {
          if ((media as Json).example === undefined && (media as Json).examples === undefined) missing.push(where('request', type));
        }
        for (const [status, response] of Object.entries(op.responses as Json)) {
          if (!status.startsWith('2')) continue;
          for (const [type, media] of Object.entries(((response as Json).content ?? {}) as Json)) {
            if (!/json/.test(type) || (media as Json).example !== undefined || (media as Json).examples !== undefined) continue;
            missing.push(`${where(status, type)} (${path})`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('finds every example valid against its schema, naming the operation and the pointer of any that is not', () => {
    const found = examplesIn();
    expect(found.length).toBeGreaterThan(200);
    const invalid = found.flatMap(({ where, pointer, schemaPointer, value }) => {
      const validate = ajv.getSchema(`${DOC_ID}#${encodeURI(schemaPointer)}`);
      if (!validate) return [`${where} ${pointer}: no schema at ${schemaPointer}`];
      return validate(value) ? [] : [`${where} ${pointer}: ${ajv.errorsText(validate.errors, { dataVar: 'example' })}`];
    });
    expect(invalid).toEqual([]);
  });

  it('refuses an example that breaks its schema, with the operation and the pointer (the check is not vacuous)', () => {
    const broken = structuredClone(doc);
    const media = broken.paths['/api/hailing/bookings'].post.requestBody.content['application/json'];
    media.example = { booking: { stops: [] } };
    const check = new Ajv2020({ strict: false, validateSchema: false });
    addFormats(check);
    check.addSchema({ ...broken, $id: DOC_ID });
    const validate = check.getSchema(`${DOC_ID}#${encodeURI('/paths/~1api~1hailing~1bookings/post/requestBody/content/application~1json/schema')}`)!;
    expect(validate(media.example)).toBe(false);
  });
});

describe('composing an example from the examples written on its parts', () => {
  const components = { components: { schemas: { Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string', examples: ['t1'] } } } } } };

  it('wraps a component example in its envelope and its list page', () => {
    const page = { type: 'object', required: ['things', 'meta'], properties: { things: { type: 'array', items: { $ref: '#/components/schemas/Thing' } }, meta: { type: 'object', properties: { has_more: { type: 'boolean', examples: [false] } } } } };
    expect(exampleOf(page, components)).toEqual({ things: [{ id: 't1' }], meta: { has_more: false } });
  });

  it('invents nothing: a required member without a written example leaves the whole without one', () => {
    const schema = { type: 'object', required: ['thing', 'count'], properties: { thing: { $ref: '#/components/schemas/Thing' }, count: { type: 'integer' } } };
    expect(exampleOf(schema, components)).toBeUndefined();
    expect(exampleOf({ anyOf: [{ type: 'integer' }, { type: 'null' }] }, components)).toBeNull();
  });
});
