// Examples in the OpenAPI document: a body's or a success response's example is composed from the examples written on
// the schemas it is made of, so each resource is written once and its envelopes and list pages follow (decision 0160).
type Json = Record<string, unknown>;

const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json$/;

/** The node a local `$ref` (`#/components/schemas/Booking`) points at. */
function target(doc: Json, ref: string): unknown {
  return ref.replace(/^#\//, '').split('/').reduce<unknown>((at, key) => (at as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

/**
 * An example for `schema`: the one written on it, or one made of the examples written on its parts (an object from its
 * members', an array from its item's, a nullable from its non-null branch). Undefined when a required member has none:
 * nothing is invented, a schema without a written example somewhere below stays without one.
 */
export function exampleOf(schema: unknown, doc: Json, following: readonly string[] = []): unknown {
  if (!schema || typeof schema !== 'object') return undefined;
  const s = schema as Json;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (typeof s.$ref === 'string') return following.includes(s.$ref) ? undefined : exampleOf(target(doc, s.$ref), doc, [...following, s.$ref]);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length === 1) return s.enum[0];
  if (Array.isArray(s.anyOf)) {
    // Nullable(X) is anyOf [X, null]: X's example when it has one, null otherwise.
    for (const branch of s.anyOf) {
      const example = exampleOf(branch, doc, following);
      if (example !== undefined) return example;
    }
    return undefined;
  }
  if (s.type === 'null') return null;
  if (s.type === 'array') {
    // An empty list would show nothing of what it lists: without an item's example the array has none.
    const item = exampleOf(s.items, doc, following);
    return item === undefined ? undefined : [item];
  }
  if (s.type === 'object' || s.properties) {
    const required = new Set((s.required as string[] | undefined) ?? []);
    const out: Json = {};
    for (const [name, member] of Object.entries((s.properties as Json | undefined) ?? {})) {
      const example = exampleOf(member, doc, following);
      if (example !== undefined) out[name] = example;
      else if (required.has(name)) return undefined;
    }
    return out;
  }
  return undefined;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Gives every JSON request body and success response without an example the one its schema's parts compose. */
export function composeExamples(doc: Json): void {
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const media = [
        (op.requestBody as { content?: Record<string, Json> } | undefined)?.content ?? {},
        ...Object.entries((op.responses ?? {}) as Record<string, { content?: Record<string, Json> }>)
          .filter(([status]) => status.startsWith('2'))
          .map(([, response]) => response.content ?? {}),
      ];
      for (const content of media) {
        for (const [type, entry] of Object.entries(content)) {
          if (!JSON_MEDIA.test(type) || entry.example !== undefined || entry.examples !== undefined) continue;
          const example = exampleOf(entry.schema, doc);
          if (example !== undefined) entry.example = example;
        }
      }
    }
  }
}

/** The ids the document's examples share, so a booking's example names the service and the stops its other examples show. */
export const EXAMPLE_ID = {
  tenant: '0193b2e4-0c1d-7a2e-8f30-000000000001',
  admin: '0193b2e4-0c1d-7a2e-8f30-000000000002',
  manager: '0193b2e4-0c1d-7a2e-8f30-000000000003',
  driver: '0193b2e4-0c1d-7a2e-8f30-000000000004',
  customer: '0193b2e4-0c1d-7a2e-8f30-000000000005',
  organization: '0193b2e4-0c1d-7a2e-8f30-000000000006',
  serviceArea: '0193b2e4-0c1d-7a2e-8f30-000000000007',
  schedulingConfig: '0193b2e4-0c1d-7a2e-8f30-000000000008',
  service: '0193b2e4-0c1d-7a2e-8f30-000000000009',
  pickupPlace: '0193b2e4-0c1d-7a2e-8f30-00000000000a',
  dropoffPlace: '0193b2e4-0c1d-7a2e-8f30-00000000000b',
  booking: '0193b2e4-0c1d-7a2e-8f30-000000000010',
  pickupStop: '0193b2e4-0c1d-7a2e-8f30-000000000011',
  dropoffStop: '0193b2e4-0c1d-7a2e-8f30-000000000012',
  package: '0193b2e4-0c1d-7a2e-8f30-000000000013',
  tour: '0193b2e4-0c1d-7a2e-8f30-000000000014',
  webhook: '0193b2e4-0c1d-7a2e-8f30-000000000015',
  delivery: '0193b2e4-0c1d-7a2e-8f30-000000000016',
  report: '0193b2e4-0c1d-7a2e-8f30-000000000017',
  apiKey: '0193b2e4-0c1d-7a2e-8f30-000000000018',
  event: '0193b2e4-0c1d-7a2e-8f30-000000000019',
  position: '0193b2e4-0c1d-7a2e-8f30-00000000001a',
} as const;

/** A moment the examples share (with minutes after it where an example needs a later one). */
export const EXAMPLE_AT = '2026-11-22T13:05:00.000Z';
