/**
 * Fuzz category `bombs`: patches whose work or result grows far beyond their size — JSON patch
 * copy-doubling (a 100 KB value copied into itself 30 times), huge operation counts, merge and
 * strategic patches and applies that grow an object past any sane size, and patches that address
 * absurd indexes. Each targets a seeded object, so an accepted bomb shows up as a change.
 */
import {
  APPLY,
  cmKey,
  cmPath,
  deploymentPath,
  JSON_PATCH,
  key,
  MERGE,
  STRATEGIC,
  spaceOf,
  type Where,
} from './fixture.ts'
import type { Rng } from './rng.ts'
import type { Fixture, FuzzRequest } from './types.ts'

const BIG = 'x'.repeat(100_000)

function doubling(rounds: number, from: string, into: (i: number) => string): unknown[] {
  const ops: unknown[] = [{ op: 'add', path: `${from}/big`, value: BIG }]
  for (let i = 0; i < rounds; i++) ops.push({ op: 'copy', from, path: into(i) })
  return ops
}

function jsonPatchBombs(): { label: string; ops: unknown; refuse: boolean }[] {
  return [
    {
      label: 'copy /data into itself x30',
      ops: doubling(30, '/data', (i) => `/data/c${i}`),
      refuse: true,
    },
    {
      label: 'copy /metadata/annotations into labels x30',
      ops: [
        { op: 'add', path: '/metadata/annotations/big', value: BIG },
        ...Array.from({ length: 30 }, (_, i) => ({
          op: 'copy',
          from: '/metadata/annotations',
          path: `/metadata/annotations/a${i}`,
        })),
      ],
      refuse: true,
    },
    {
      label: 'copy a 100 KB value 40 times',
      ops: [
        { op: 'add', path: '/data/big', value: BIG },
        ...Array.from({ length: 40 }, (_, i) => ({
          op: 'copy',
          from: '/data/big',
          path: `/data/k${i}`,
        })),
      ],
      refuse: true,
    },
    {
      label: 'copy root into a field',
      ops: [
        { op: 'copy', from: '', path: '/data/self' },
        { op: 'copy', from: '', path: '/data/self2' },
      ],
      refuse: true,
    },
    { label: 'move root', ops: [{ op: 'move', from: '', path: '/data/x' }], refuse: true },
    {
      label: '50,000 add ops',
      ops: Array.from({ length: 50_000 }, (_, i) => ({
        op: 'add',
        path: `/data/k${i}`,
        value: 'v',
      })),
      refuse: false,
    },
    {
      label: '60,000 test ops',
      ops: Array.from({ length: 60_000 }, () => ({
        op: 'test',
        path: '/metadata/name',
        value: 'cm-a',
      })),
      refuse: false,
    },
    {
      label: 'huge array index',
      ops: [{ op: 'add', path: '/metadata/finalizers/99999999999', value: 'x' }],
      refuse: true,
    },
    {
      label: 'negative index',
      ops: [{ op: 'add', path: '/metadata/finalizers/-2', value: 'x' }],
      refuse: true,
    },
    { label: 'remove missing', ops: [{ op: 'remove', path: '/data/nope/deeper' }], refuse: true },
    { label: 'unknown op', ops: [{ op: 'explode', path: '/data' }], refuse: true },
    { label: 'op missing path', ops: [{ op: 'add', value: 1 }], refuse: true },
    { label: 'ops not a list', ops: { op: 'add', path: '/data/x', value: 'y' }, refuse: true },
    {
      label: 'pointer with bad escape',
      ops: [{ op: 'add', path: '/data/~2', value: 'y' }],
      refuse: false,
    },
    {
      label: 'pointer without leading slash',
      ops: [{ op: 'add', path: 'data/x', value: 'y' }],
      refuse: false,
    },
    { label: 'remove /metadata', ops: [{ op: 'remove', path: '/metadata' }], refuse: false },
    {
      label: 'replace root with a string',
      ops: [{ op: 'replace', path: '', value: 'x' }],
      refuse: true,
    },
  ]
}

function grow(keys: number, size: number): Record<string, string> {
  const out: Record<string, string> = {}
  for (let i = 0; i < keys; i++) out[`k${i}`] = 'v'.repeat(size)
  return out
}

/** One bomb request: what the fuzz report calls it, what is sent, and whether it must be refused. */
type Bomb = {
  label: string
  method: string
  path: string
  contentType: string
  body: string
  mustRefuse: boolean
}

export function bombCases(rng: Rng, fx: Fixture): FuzzRequest[] {
  const out: FuzzRequest[] = []
  for (const where of ['root', 'space'] as Where[]) {
    const target = rng.pick(['cm-a', 'cm-b', 'cm-c'])
    const path = cmPath(fx, where, target)
    const touches = [cmKey(fx, where, target)]
    const push = (r: Bomb) =>
      out.push({
        category: 'bombs',
        label: r.label,
        method: r.method,
        path: r.path,
        token: 'admin',
        contentType: r.contentType,
        body: r.body,
        write: true,
        mustRefuse: r.mustRefuse,
        touches,
      })
    for (const b of jsonPatchBombs())
      push({
        label: `json patch: ${b.label}`,
        method: 'PATCH',
        path,
        contentType: JSON_PATCH,
        body: JSON.stringify(b.ops),
        mustRefuse: b.refuse,
      })
    push({
      label: 'json patch bomb under dryRun',
      method: 'PATCH',
      path: `${path}?dryRun=All`,
      contentType: JSON_PATCH,
      body: JSON.stringify(doubling(30, '/data', (i) => `/data/c${i}`)),
      mustRefuse: true,
    })
    push({
      label: 'merge patch: one 2.5 MB value',
      method: 'PATCH',
      path,
      contentType: MERGE,
      body: JSON.stringify({ data: { big: 'x'.repeat(2_500_000) } }),
      mustRefuse: true,
    })
    push({
      label: 'merge patch: 20,000 keys of 100 B',
      method: 'PATCH',
      path,
      contentType: MERGE,
      body: JSON.stringify({ data: grow(20_000, 100) }),
      mustRefuse: true,
    })
    push({
      label: 'merge patch: 100,000 tiny keys',
      method: 'PATCH',
      path,
      contentType: MERGE,
      body: JSON.stringify({ metadata: { annotations: grow(100_000, 1) } }),
      mustRefuse: false,
    })
    push({
      label: 'apply: 2 MB of data',
      method: 'PATCH',
      path: `${path}?fieldManager=fuzz-bomb`,
      contentType: APPLY,
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: target },
        data: grow(20, 100_000),
      }),
      mustRefuse: true,
    })
    push({
      label: 'apply: 30,000 fields',
      method: 'PATCH',
      path: `${path}?fieldManager=fuzz-bomb`,
      contentType: APPLY,
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: target, labels: grow(30_000, 1) },
      }),
      mustRefuse: false,
    })
    const depTouches = [key(spaceOf(fx, where), 'deployments', fx.namespace, fx.deployment)]
    const containers = Array.from({ length: 10_000 }, (_, i) => ({
      name: `c${i}`,
      image: 'x',
      env: [{ name: 'A', value: 'x'.repeat(100) }],
    }))
    out.push({
      category: 'bombs',
      label: 'strategic patch: 10,000 containers',
      method: 'PATCH',
      path: deploymentPath(fx, where),
      token: 'admin',
      contentType: STRATEGIC,
      body: JSON.stringify({ spec: { template: { spec: { containers } } } }),
      write: true,
      touches: depTouches,
    })
    out.push({
      category: 'bombs',
      label: 'strategic patch: $setElementOrder of 100,000',
      method: 'PATCH',
      path: deploymentPath(fx, where),
      token: 'admin',
      contentType: STRATEGIC,
      body: JSON.stringify({
        spec: {
          template: {
            spec: {
              '$setElementOrder/containers': Array.from({ length: 100_000 }, (_, i) => ({
                name: `c${i}`,
              })),
            },
          },
        },
      }),
      write: true,
      touches: depTouches,
    })
    out.push({
      category: 'bombs',
      label: 'strategic patch: bogus directives',
      method: 'PATCH',
      path: deploymentPath(fx, where),
      token: 'admin',
      contentType: STRATEGIC,
      body: JSON.stringify({
        spec: {
          $patch: 'explode',
          template: { spec: { containers: [{ $patch: 'delete' }, { $retainKeys: 5 }] } },
        },
      }),
      write: true,
      touches: depTouches,
    })
    out.push({
      category: 'bombs',
      label: 'scale: replicas 2^63',
      method: 'PATCH',
      path: deploymentPath(fx, where, 'scale'),
      token: 'admin',
      contentType: MERGE,
      body: '{"spec":{"replicas":9223372036854775808}}',
      write: true,
      mustRefuse: true,
      touches: depTouches,
    })
  }
  return out
}
