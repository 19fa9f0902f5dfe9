/**
 * Fuzz category `edge`. The edge API (`/edge/v1/...`, functions/edge-api/routes.ts)
 * under every token — the mailbox's own edge credential, another mailbox's, a tenant's, none, an
 * unknown one, an admin's — with bad mailbox names, bad If-None-Match values, every method, and
 * malformed, wrongly typed or oversized report and bootstrap bodies (hooks: gen-hooks.ts).
 */
import { JSON_TYPE } from './fixture.ts'
import { BAD_NAMES } from './gen-names.ts'
import type { Rng } from './rng.ts'
import type { Fixture, FuzzRequest, TokenKind } from './types.ts'

const TOKENS: TokenKind[] = ['edge', 'other-edge', 'user', 'none', 'bad', 'malformed', 'admin']

const ref = { group: '', version: 'v1', resource: 'configmaps', namespace: 'fuzz', name: 'x' }

function reportBodies(fx: Fixture): { label: string; body: string; valid: boolean }[] {
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      ...ref,
      name: `x${i}`,
      observedGeneration: 1,
      status: {},
    }))
  return [
    { label: 'empty', body: '', valid: false },
    { label: 'broken JSON', body: '{"kind":"Report",', valid: false },
    { label: 'array', body: '[]', valid: false },
    { label: 'wrong kind', body: '{"kind":"Nope"}', valid: false },
    { label: 'minimal', body: '{"kind":"Report"}', valid: true },
    { label: 'statuses not a list', body: '{"kind":"Report","statuses":{}}', valid: false },
    {
      label: 'status with bad ref',
      body: JSON.stringify({
        kind: 'Report',
        statuses: [{ ...ref, version: '', observedGeneration: -1, status: 5 }],
      }),
      valid: false,
    },
    {
      label: '1,001 statuses',
      body: JSON.stringify({ kind: 'Report', statuses: many(1001) }),
      valid: false,
    },
    {
      label: 'upsync a Secret into another space',
      body: JSON.stringify({
        kind: 'Report',
        upsync: {
          apply: [
            {
              apiVersion: 'v1',
              kind: 'Secret',
              metadata: { name: 'fz-up', namespace: '../../root' },
            },
          ],
        },
      }),
      valid: true,
    },
    {
      label: 'upsync with dot-segment names',
      body: JSON.stringify({
        kind: 'Report',
        upsync: {
          apply: [
            { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '..', namespace: '.' } },
          ],
          delete: [{ ...ref, name: '..', namespace: '..' }],
        },
      }),
      valid: true,
    },
    {
      label: 'upsync delete of a seeded object',
      body: JSON.stringify({
        kind: 'Report',
        upsync: { delete: [{ ...ref, name: 'cm-a', namespace: fx.namespace }] },
      }),
      valid: true,
    },
    {
      label: 'problems with a bad reason',
      body: JSON.stringify({
        kind: 'Report',
        problems: [{ ...ref, reason: 'Explode', message: 'x' }],
      }),
      valid: false,
    },
    {
      label: 'problem message of 1 MB',
      body: JSON.stringify({
        kind: 'Report',
        problems: [{ ...ref, reason: 'ApplyFailed', message: 'm'.repeat(1_000_000) }],
      }),
      valid: false,
    },
    {
      label: 'removed of another mailbox',
      body: JSON.stringify({
        kind: 'Report',
        removed: [{ ...ref, namespace: '..', name: fx.otherMailbox }],
      }),
      valid: true,
    },
    { label: 'heartbeat a string', body: '{"kind":"Report","heartbeat":"yes"}', valid: false },
    {
      label: '4 MiB',
      body: JSON.stringify({ kind: 'Report', pad: 'p'.repeat(4 * 1024 * 1024) }),
      valid: false,
    },
  ]
}

function bootstrapBodies(fx: Fixture): { label: string; body: string }[] {
  return [
    { label: 'empty', body: '' },
    { label: 'broken', body: '{' },
    { label: 'array', body: '[1]' },
    { label: 'no syncTarget', body: JSON.stringify({ inventory: `root:${fx.inventory}` }) },
    { label: 'dot-dot inventory', body: JSON.stringify({ inventory: '..', syncTarget: 'x' }) },
    {
      label: 'dot-dot syncTarget',
      body: JSON.stringify({ inventory: `root:${fx.inventory}`, syncTarget: '..' }),
    },
    {
      label: 'unknown inventory',
      body: JSON.stringify({ inventory: 'root:nope', syncTarget: 'nope' }),
    },
    {
      label: 'unknown syncTarget',
      body: JSON.stringify({ inventory: `root:${fx.inventory}`, syncTarget: 'nope' }),
    },
    {
      label: 'extra field',
      body: JSON.stringify({
        inventory: `root:${fx.inventory}`,
        syncTarget: 'nope',
        token: 'mine',
      }),
    },
    {
      label: 'bad centerUrl',
      body: JSON.stringify({
        inventory: `root:${fx.inventory}`,
        syncTarget: 'nope',
        centerUrl: 'javascript:alert(1)',
      }),
    },
    {
      label: 'pollIntervalSeconds -1',
      body: JSON.stringify({
        inventory: `root:${fx.inventory}`,
        syncTarget: 'nope',
        pollIntervalSeconds: -1,
      }),
    },
    {
      label: 'caPem without a certificate',
      body: JSON.stringify({
        inventory: `root:${fx.inventory}`,
        syncTarget: 'nope',
        caPem: 'x'.repeat(70_000),
      }),
    },
  ]
}

/** Every method on every edge path with `token`; only the mailbox's own calls may succeed. */
function routeCases(fx: Fixture, token: TokenKind): FuzzRequest[] {
  const desired = `/edge/v1/mailboxes/${fx.mailbox}/desired`
  const own = token === 'edge' || token === 'admin'
  const paths: [string, string, string][] = [
    ['desired', desired, 'GET'],
    ['reports', `/edge/v1/mailboxes/${fx.mailbox}/reports`, 'POST'],
    [
      'other mailbox desired',
      `/edge/v1/mailboxes/${fx.otherMailbox}/desired`,
      token === 'admin' || token === 'other-edge' ? 'GET' : '',
    ],
    ['bootstrap', '/edge/v1/bootstrap', ''],
    ['edge root', '/edge/v1', ''],
    ['mailboxes', '/edge/v1/mailboxes', ''],
    ['mailbox', `/edge/v1/mailboxes/${fx.mailbox}`, ''],
    ['desired extra', `${desired}/extra`, ''],
  ]
  const out: FuzzRequest[] = []
  for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])
    for (const [label, path, okMethod] of paths) {
      // `other-edge` is the other mailbox's own credential
      const mine = own || (token === 'other-edge' && label === 'other mailbox desired')
      const accepted = mine && (method === okMethod || (method === 'HEAD' && okMethod === 'GET'))
      const write = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS'
      out.push({
        category: 'edge',
        label: `${method} ${label} as ${token}`,
        method,
        path,
        token,
        write,
        ...(write ? { contentType: JSON_TYPE, body: '{"kind":"Report"}' } : {}),
        mustRefuse: !accepted && method !== 'OPTIONS',
        touches: [],
      })
    }
  return out
}

export function edgeCases(rng: Rng, fx: Fixture): FuzzRequest[] {
  const out: FuzzRequest[] = []
  const desired = `/edge/v1/mailboxes/${fx.mailbox}/desired`
  const reports = `/edge/v1/mailboxes/${fx.mailbox}/reports`
  for (const token of TOKENS) {
    const own = token === 'edge' || token === 'admin'
    out.push(...routeCases(fx, token))
    for (const b of reportBodies(fx))
      out.push({
        category: 'edge',
        label: `report as ${token}: ${b.label}`,
        method: 'POST',
        path: reports,
        token,
        write: true,
        contentType: JSON_TYPE,
        body: b.body,
        mustRefuse: !(own && b.valid),
        touches: [],
      })
  }
  for (const bad of BAD_NAMES)
    for (const token of ['edge', 'admin'] as TokenKind[])
      for (const [method, tail] of [
        ['GET', 'desired'],
        ['POST', 'reports'],
      ] as const)
        out.push({
          category: 'edge',
          label: `${method} mailbox named ${bad.label} as ${token}`,
          method,
          path: `/edge/v1/mailboxes/${bad.segment}/${tail}`,
          token,
          write: method === 'POST',
          ...(method === 'POST' ? { contentType: JSON_TYPE, body: '{"kind":"Report"}' } : {}),
          mustRefuse: true,
          touches: [],
        })
  for (const inm of ['garbage', '"', 'W/"x"', '*', `"${'9'.repeat(5000)}"`, '"-1"', '"abc", "def"'])
    out.push({
      category: 'edge',
      label: `desired with If-None-Match ${inm.slice(0, 20)}`,
      method: 'GET',
      path: desired,
      token: 'edge',
      headers: { 'if-none-match': inm },
      write: false,
      touches: [],
    })
  for (const b of bootstrapBodies(fx))
    for (const token of ['admin', 'user', 'edge'] as TokenKind[])
      out.push({
        category: 'edge',
        label: `bootstrap as ${token}: ${b.label}`,
        method: 'POST',
        path: '/edge/v1/bootstrap',
        token,
        write: true,
        contentType: JSON_TYPE,
        body: b.body,
        mustRefuse: true,
        touches: [],
      })
  for (const ct of [
    'text/plain',
    'application/xml',
    'application/x-www-form-urlencoded',
    'application/vnd.kubernetes.protobuf',
  ])
    out.push({
      category: 'edge',
      label: `report as ${ct}`,
      method: 'POST',
      path: reports,
      token: 'edge',
      write: true,
      contentType: ct,
      body: '{"kind":"Report"}',
      mustRefuse: true,
      touches: [],
    })
  return rng.shuffle(out)
}
