/**
 * Fuzz category `content-types`: a well-formed body sent under every content type on every write
 * verb — text/plain, XML, octet-stream, multipart, form-urlencoded, CBOR, wildcards, garbage,
 * protobuf garbage, patch types where they do not belong, JSON on a PATCH, none at all.
 */
import {
  APPLY,
  cmCollection,
  cmKey,
  cmPath,
  configMap,
  JSON_PATCH,
  MERGE,
  namespacePath,
  STRATEGIC,
} from './fixture.ts'
import type { Rng } from './rng.ts'
import type { Fixture, FuzzRequest } from './types.ts'

const bytes = (...b: number[]) => new Uint8Array(b)

const WRONG_TYPES: { type: string | undefined; refuse: 'always' | 'patch' | 'never' }[] = [
  { type: 'text/plain', refuse: 'always' },
  { type: 'application/xml', refuse: 'always' },
  { type: 'text/xml', refuse: 'always' },
  { type: 'application/octet-stream', refuse: 'always' },
  { type: 'multipart/form-data; boundary=xyz', refuse: 'always' },
  { type: 'application/x-www-form-urlencoded', refuse: 'always' },
  { type: 'text/html', refuse: 'always' },
  { type: 'application/cbor', refuse: 'always' },
  { type: 'garbage', refuse: 'always' },
  { type: 'application/', refuse: 'always' },
  { type: '*/*', refuse: 'always' },
  { type: 'application/json; charset=utf-16', refuse: 'never' },
  { type: 'APPLICATION/JSON', refuse: 'patch' },
  { type: 'application/json', refuse: 'patch' },
  { type: 'application/yaml', refuse: 'patch' },
  { type: undefined, refuse: 'patch' },
  { type: JSON_PATCH, refuse: 'never' },
  { type: MERGE, refuse: 'never' },
  { type: STRATEGIC, refuse: 'never' },
  { type: APPLY, refuse: 'never' },
]

function protobufGarbage(rng: Rng): { label: string; body: Uint8Array }[] {
  const random = new Uint8Array(512)
  for (let i = 0; i < random.length; i++) random[i] = rng.int(256)
  const magic = [0x6b, 0x38, 0x73, 0x00]
  return [
    { label: 'random bytes', body: random },
    { label: 'magic only', body: bytes(...magic) },
    { label: 'magic + garbage', body: bytes(...magic, 0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01) },
    {
      label: 'magic + huge length',
      body: bytes(...magic, 0x0a, 0x02, 0x76, 0x31, 0x12, 0xff, 0xff, 0xff, 0xff, 0x07),
    },
    {
      label: 'deep nested messages',
      body: new Uint8Array([...magic, ...Array.from({ length: 4000 }, () => [0x1a, 0x7f]).flat()]),
    },
  ]
}

export function contentTypeCases(rng: Rng, fx: Fixture): FuzzRequest[] {
  const out: FuzzRequest[] = []
  let n = 0
  for (const where of ['root', 'space'] as const) {
    for (const wt of WRONG_TYPES) {
      const name = `fz-ct${n++}`
      const isPatchType = wt.type?.includes('patch') ?? false
      const targets = [
        {
          method: 'POST',
          path: cmCollection(fx, where),
          body: configMap(name, { ct: String(wt.type) }),
          touch: cmKey(fx, where, name),
          kind: 'create',
        },
        {
          method: 'PUT',
          path: cmPath(fx, where, 'cm-a'),
          body: configMap('cm-a', { ct: String(wt.type) }),
          touch: cmKey(fx, where, 'cm-a'),
          kind: 'update',
        },
        {
          method: 'PATCH',
          path: cmPath(fx, where, 'cm-b'),
          body:
            wt.type === JSON_PATCH
              ? [{ op: 'add', path: '/data/ct', value: 'x' }]
              : { data: { ct: String(wt.type) } },
          touch: cmKey(fx, where, 'cm-b'),
          kind: 'patch',
        },
      ]
      for (const t of targets) {
        const refuse =
          wt.refuse === 'always' ||
          (wt.refuse === 'patch' && t.kind === 'patch') ||
          (isPatchType && t.kind !== 'patch')
        out.push({
          category: 'content-types',
          label: `${t.kind} as ${wt.type ?? '(none)'}`,
          method: t.method,
          path: t.path,
          token: 'admin',
          ...(wt.type ? { contentType: wt.type } : {}),
          body: JSON.stringify(t.body),
          write: true,
          mustRefuse: refuse,
          touches: [t.touch],
        })
      }
    }
    for (const g of protobufGarbage(rng))
      for (const [method, path] of [
        ['POST', cmCollection(fx, where)],
        ['PUT', cmPath(fx, where, 'cm-a')],
        ['PATCH', cmPath(fx, where, 'cm-b')],
      ] as const)
        out.push({
          category: 'content-types',
          label: `${method} protobuf ${g.label}`,
          method,
          path,
          token: 'admin',
          contentType: 'application/vnd.kubernetes.protobuf',
          body: g.body,
          write: true,
          mustRefuse: true,
          touches: [],
        })
    out.push({
      category: 'content-types',
      label: 'namespace create as text/plain',
      method: 'POST',
      path: namespacePath(fx, where, '').replace(/\/$/, ''),
      token: 'admin',
      contentType: 'text/plain',
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: `fz-ns${n++}` },
      }),
      write: true,
      mustRefuse: true,
      touches: [],
    })
  }
  return rng.shuffle(out)
}
