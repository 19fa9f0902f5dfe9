/**
 * Fuzz category `bodies`: malformed JSON and YAML bodies (syntax errors, wrong encodings, wrong
 * shapes, alias bombs, oversize) sent to every kind of write: create, update, each patch type, a
 * namespace create (content types: gen-content-types.ts).
 */
import {
  APPLY,
  cmCollection,
  cmKey,
  cmPath,
  configMap,
  JSON_TYPE,
  PATCH_TYPES,
  prefix,
  type Where,
} from './fixture.ts'
import type { Rng } from './rng.ts'
import type { Fixture, FuzzRequest } from './types.ts'

const bytes = (...b: number[]) => new Uint8Array(b)

/** Bodies no decoder may accept (syntax errors, wrong encodings, oversize). */
function brokenBodies(): { label: string; body: string | Uint8Array }[] {
  return [
    { label: 'unterminated object', body: '{' },
    { label: 'lone brace', body: '}' },
    { label: 'missing value', body: '{"a":}' },
    { label: 'truncated', body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name"' },
    { label: 'trailing garbage', body: '{"apiVersion":"v1"}x' },
    { label: 'two documents', body: '{}{}' },
    { label: 'byte order mark', body: '\ufeff{"apiVersion":"v1"}' },
    { label: 'NUL byte', body: '\u0000' },
    { label: 'invalid UTF-8', body: bytes(0x7b, 0x22, 0xff, 0xfe, 0x80, 0x22, 0x3a, 0x31, 0x7d) },
    { label: 'single quotes', body: "{'a': 1}" },
    { label: 'comment', body: '{/* x */}' },
    { label: 'NaN', body: '{"data":{"k":NaN}}' },
    { label: 'unquoted key', body: '{data: 1}' },
    { label: 'lone surrogate escape', body: '{"metadata":{"name":"\\ud800"}}' },
    { label: 'bad escape', body: '{"a":"\\x41"}' },
    { label: 'control char in string', body: '{"a":"\u0001\u0002"}' },
    { label: '4 MiB of spaces then {', body: `${' '.repeat(4 * 1024 * 1024)}{` },
  ]
}

/** Well-formed JSON that is not an object of the addressed kind. */
function wrongShapes(): { label: string; body: string }[] {
  return [
    { label: 'null', body: 'null' },
    { label: 'array', body: '[]' },
    { label: 'string', body: '"ConfigMap"' },
    { label: 'number', body: '42' },
    { label: 'huge number', body: '1e999999' },
    { label: 'metadata null', body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":null}' },
    { label: 'metadata array', body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":[]}' },
    {
      label: 'name a number',
      body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":5}}',
    },
    {
      label: 'data an array',
      body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-x"},"data":[]}',
    },
    {
      label: 'data values not strings',
      body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-y"},"data":{"k":{"x":1}}}',
    },
    {
      label: '__proto__ key',
      body: '{"__proto__":{"polluted":true},"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-proto","__proto__":{"x":1}}}',
    },
    {
      label: 'duplicate keys',
      body: '{"apiVersion":"v1","kind":"ConfigMap","kind":"Secret","metadata":{"name":"fz-dup"}}',
    },
    {
      label: 'labels a list',
      body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-l","labels":["a"]}}',
    },
    {
      label: 'huge integer',
      body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fz-n","generation":1e400}}',
    },
    {
      label: 'object over 1 MiB',
      body: JSON.stringify(configMap('fz-big', { k: 'x'.repeat(1_200_000) })),
    },
  ]
}

/** YAML that must not decode to something dangerous: alias bombs, tags, many documents. */
function yamlBodies(): { label: string; body: string; broken: boolean }[] {
  const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
  for (let i = 1; i < 9; i++) {
    const p = String.fromCharCode(96 + i)
    const n = String.fromCharCode(97 + i)
    laughs.push(`${n}: &${n} [*${p},*${p},*${p},*${p},*${p},*${p},*${p},*${p},*${p}]`)
  }
  return [
    { label: 'yaml alias bomb', body: `${laughs.join('\n')}\n`, broken: true },
    { label: 'yaml unclosed flow', body: '{{{[[[', broken: true },
    { label: 'yaml tab indent', body: 'apiVersion: v1\n\tkind: ConfigMap\n', broken: true },
    {
      label: 'yaml js tag',
      body: 'apiVersion: !!js/function "function(){}"\nkind: ConfigMap\n',
      broken: false,
    },
    {
      label: 'yaml binary tag',
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata: !!binary aGVsbG8=\n',
      broken: false,
    },
    {
      label: 'yaml two documents',
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fz-y1}\n---\nkind: Secret\n',
      broken: false,
    },
    { label: 'yaml self alias', body: 'a: &x\n  b: *x\n', broken: true },
    { label: 'yaml list', body: '- a\n- b\n', broken: false },
    {
      label: 'yaml merge key bomb',
      body: 'x: &x {a: 1}\ny:\n  <<: [*x, *x, *x, *x]\n',
      broken: false,
    },
  ]
}

type Target = {
  label: string
  method: string
  path: string
  contentType: string
  touches: string[]
  /** kube refuses a body of the wrong shape here (a create); patches may legitimately no-op. */
  shapeMatters: boolean
}

function writeTargets(fx: Fixture, where: Where, n: number): Target[] {
  const coll = cmCollection(fx, where)
  const name = `fz-b${n}`
  return [
    {
      label: 'create',
      method: 'POST',
      path: coll,
      contentType: JSON_TYPE,
      touches: [cmKey(fx, where, name)],
      shapeMatters: true,
    },
    {
      label: 'update',
      method: 'PUT',
      path: cmPath(fx, where, 'cm-a'),
      contentType: JSON_TYPE,
      touches: [cmKey(fx, where, 'cm-a')],
      shapeMatters: true,
    },
    ...PATCH_TYPES.map((t) => ({
      label: `patch ${t.split('/')[1]}`,
      method: 'PATCH',
      path: cmPath(fx, where, 'cm-b'),
      contentType: t,
      touches: [cmKey(fx, where, 'cm-b')],
      shapeMatters: false,
    })),
    {
      label: 'namespace create',
      method: 'POST',
      path: `${prefix(fx, where)}/api/v1/namespaces`,
      contentType: JSON_TYPE,
      touches: [],
      shapeMatters: true,
    },
  ]
}

export function bodyCases(rng: Rng, fx: Fixture): FuzzRequest[] {
  const out: FuzzRequest[] = []
  let n = 0
  for (const where of ['root', 'space'] as const) {
    for (const t of writeTargets(fx, where, n++)) {
      for (const b of brokenBodies())
        out.push({
          category: 'bodies',
          label: `${t.label}: ${b.label}`,
          method: t.method,
          path: t.path,
          token: 'admin',
          contentType: t.contentType,
          body: b.body,
          write: true,
          mustRefuse: true,
          touches: t.touches,
        })
      for (const b of wrongShapes()) {
        // wrong shapes get their own created name so an accepted create is visible
        out.push({
          category: 'bodies',
          label: `${t.label}: ${b.label}`,
          method: t.method,
          path: t.path,
          token: 'admin',
          contentType: t.contentType,
          body: b.body,
          write: true,
          mustRefuse:
            t.shapeMatters &&
            !b.label.startsWith('__proto__') &&
            b.label !== 'duplicate keys' &&
            b.label !== 'huge integer',
          touches: [
            ...t.touches,
            cmKey(fx, where, 'fz-proto'),
            cmKey(fx, where, 'fz-dup'),
            cmKey(fx, where, 'fz-n'),
          ],
        })
      }
    }
    for (const b of yamlBodies()) {
      for (const [method, path, ct] of [
        ['POST', cmCollection(fx, where), 'application/yaml'],
        ['PATCH', cmPath(fx, where, 'cm-c'), APPLY],
      ] as const)
        out.push({
          category: 'bodies',
          label: `${method} ${ct}: ${b.label}`,
          method,
          path,
          token: 'admin',
          contentType: ct,
          body: b.body,
          write: true,
          mustRefuse: b.broken,
          touches: [cmKey(fx, where, 'fz-y1'), cmKey(fx, where, 'cm-c')],
        })
    }
  }
  return rng.shuffle(out)
}
