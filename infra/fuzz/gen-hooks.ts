/**
 * Fuzz category `hooks`: the reconcile hooks (`POST /hooks/<step>`, functions/hooks/routes.ts)
 * with malformed, wrongly typed and oversized bodies, bad and dot-segment step names, every
 * method and content type, and with tenant, edge, unknown and missing tokens (admin only).
 */
import { JSON_TYPE } from './fixture.ts'
import type { Rng } from './rng.ts'
import type { Fixture, FuzzRequest, TokenKind } from './types.ts'

export function hookCases(rng: Rng, fx: Fixture): FuzzRequest[] {
  const out: FuzzRequest[] = []
  const bodies: { label: string; body: string; valid: boolean }[] = [
    { label: 'empty', body: '', valid: false },
    { label: 'broken', body: '{"keys": ', valid: false },
    { label: 'array', body: '["x"]', valid: false },
    { label: 'no keys', body: '{}', valid: false },
    { label: 'keys empty', body: '{"keys":[]}', valid: false },
    { label: 'empty key', body: '{"keys":[""]}', valid: false },
    { label: 'numeric key', body: '{"keys":[5]}', valid: false },
    {
      label: '501 keys',
      body: JSON.stringify({ keys: Array.from({ length: 501 }, (_, i) => `k${i}`) }),
      valid: false,
    },
    { label: 'key of 513 chars', body: JSON.stringify({ keys: ['k'.repeat(513)] }), valid: false },
    { label: 'garbage key', body: '{"keys":["garbage"]}', valid: true },
    { label: 'dot-dot keys', body: '{"keys":["..","../..","%2e%2e","root:..:x"]}', valid: true },
    { label: 'other mailbox key', body: JSON.stringify({ keys: [fx.otherMailbox] }), valid: true },
    { label: 'keys null', body: '{"keys":null}', valid: false },
    { label: 'keys an object', body: '{"keys":{"a":"b"}}', valid: false },
  ]
  const steps = ['mailbox', 'where', 'translate', 'summarize']
  for (const step of steps)
    for (const b of bodies)
      for (const token of [
        'admin',
        rng.pick(['user', 'edge', 'none', 'bad'] as TokenKind[]),
      ] as TokenKind[])
        out.push({
          category: 'hooks',
          label: `${step} as ${token}: ${b.label}`,
          method: 'POST',
          path: `/hooks/${step}`,
          token,
          write: true,
          contentType: JSON_TYPE,
          body: b.body,
          mustRefuse: !(token === 'admin' && b.valid),
          touches: [],
        })
  for (const step of [
    'nope',
    '..',
    '%2e%2e',
    '.',
    'MAILBOX',
    'mailbox%00',
    'x'.repeat(3000),
    'mailbox/extra',
  ])
    for (const token of ['admin', 'user'] as TokenKind[])
      out.push({
        category: 'hooks',
        label: `step ${step.slice(0, 20)} as ${token}`,
        method: 'POST',
        path: `/hooks/${step}`,
        token,
        write: true,
        contentType: JSON_TYPE,
        body: '{"keys":["x"]}',
        mustRefuse: true,
        touches: [],
      })
  for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
    out.push({
      category: 'hooks',
      label: `${method} /hooks/mailbox`,
      method,
      path: '/hooks/mailbox',
      token: 'admin',
      write: method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS',
      mustRefuse: method !== 'OPTIONS',
      touches: [],
    })
  for (const ct of [
    'text/plain',
    'application/xml',
    'multipart/form-data; boundary=x',
    'application/x-www-form-urlencoded',
    'application/vnd.kubernetes.protobuf',
    'application/merge-patch+json',
  ])
    out.push({
      category: 'hooks',
      label: `mailbox hook as ${ct}`,
      method: 'POST',
      path: '/hooks/mailbox',
      token: 'admin',
      write: true,
      contentType: ct,
      body: '{"keys":["garbage"]}',
      mustRefuse: true,
      touches: [],
    })
  return rng.shuffle(out)
}
