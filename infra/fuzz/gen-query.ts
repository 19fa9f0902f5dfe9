/**
 * Fuzz category `query`: invalid query parameters on lists, gets, watches, the cross-space view
 * and every write — resourceVersion `abc`/`-1`/huge, bad limits and continue tokens, broken label
 * and field selectors, non-numeric timeouts, unknown dryRun/fieldValidation/propagationPolicy
 * values, repeated and malformed parameters. Writes carry a real change, so a write accepted
 * despite a bad parameter is visible.
 */
import { cmCollection, cmKey, cmPath, configMap, JSON_TYPE, MERGE, type Where } from './fixture.ts'
import type { Rng } from './rng.ts'
import type { Fixture, FuzzRequest } from './types.ts'

const FUTURE_RV = '99999999999'

/** [query, kube refuses it on a read] */
const READ_PARAMS: [string, boolean][] = [
  ['resourceVersion=abc', true],
  ['resourceVersion=-1', true],
  ['resourceVersion=1.5', true],
  ['resourceVersion=%20', true],
  ['resourceVersion=99999999999999999999999999', true],
  ['resourceVersion=0&resourceVersionMatch=Exact', true],
  ['resourceVersionMatch=Bogus&resourceVersion=1', true],
  ['resourceVersionMatch=NotOlderThan', true],
  ['limit=-1', false],
  ['limit=abc', true],
  ['limit=1e99', true],
  ['limit=99999999999999999999', true],
  ['limit=1.5', true],
  ['limit=1&continue=garbage', true],
  ['limit=1&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIuLi8uLi8ifQ', true],
  ['continue=%00%01%02', true],
  ['limit=1&continue=W10', true],
  ['labelSelector=a%20in%20(', true],
  ['labelSelector=!!', true],
  ['labelSelector=a%3Db%3Dc', true],
  ['labelSelector=%3D', true],
  ['labelSelector=a,,b', true],
  ['labelSelector=a%20notin%20', true],
  [`labelSelector=${'a'.repeat(400)}%3Db`, true],
  ['labelSelector=%C3%B1%3D1', true],
  ['fieldSelector=bogus.field%3Dx', true],
  ['fieldSelector=metadata.name', true],
  ['fieldSelector=metadata.name%3D%3D%3D', false],
  ['fieldSelector=spec.nope%3D1', true],
  ['fieldSelector=%3D', false],
  ['timeoutSeconds=x', true],
  ['timeoutSeconds=-1', false],
  ['timeoutSeconds=1e99', true],
  ['watch=maybe', false],
  ['allowWatchBookmarks=x', false],
  ['sendInitialEvents=x', true],
  ['pretty=x', false],
  ['limit=1&limit=2', false],
  ['%zz=1', false],
  ['limit=%zz', false],
  ['=x', false],
  [Array.from({ length: 1000 }, (_, i) => `p${i}=${i}`).join('&'), false],
]

/** Write parameters kube refuses (bools are lenient there, unknown parameters ignored). */
const WRITE_PARAMS: string[] = [
  'dryRun=bogus',
  'dryRun=All&dryRun=bogus',
  'dryRun=true',
  'fieldValidation=x',
  'fieldValidation=Strictest',
  `fieldManager=${'m'.repeat(200)}`,
  'fieldManager=%00',
]

const DELETE_PARAMS: string[] = [
  'propagationPolicy=x',
  'propagationPolicy=Orphan%00',
  'gracePeriodSeconds=x',
  'gracePeriodSeconds=1e99',
  'dryRun=bogus',
  'dryRun=All&propagationPolicy=x',
]

export function queryCases(rng: Rng, fx: Fixture): FuzzRequest[] {
  const out: FuzzRequest[] = []
  let n = 0
  for (const [q, refuse] of READ_PARAMS) {
    const where = rng.pick(['root', 'space'] as Where[])
    const targets: [string, string, boolean][] = [
      ['list', `${cmCollection(fx, where)}?${q}`, refuse],
      ['get', `${cmPath(fx, where, 'cm-a')}?${q}`, false],
      ['watch', `${cmCollection(fx, where)}?watch=true&${q}`, refuse],
      ['cross-space list', `/clusters/*/api/v1/configmaps?${q}`, refuse],
      ['namespace list', `/api/v1/namespaces?${q}`, refuse],
    ]
    for (const [label, path, mustRefuse] of targets)
      out.push({
        category: 'query',
        label: `${label} ?${q.slice(0, 60)}`,
        method: 'GET',
        path,
        token: 'admin',
        write: false,
        mustRefuse,
        ...(label === 'watch' ? { watch: true } : {}),
      })
  }
  for (const where of ['root', 'space'] as Where[]) {
    for (const [label, path, watch] of [
      [
        'list',
        `${cmCollection(fx, where)}?resourceVersion=${FUTURE_RV}&resourceVersionMatch=NotOlderThan`,
        false,
      ],
      [
        'list limit',
        `${cmCollection(fx, where)}?resourceVersion=${FUTURE_RV}&resourceVersionMatch=NotOlderThan&limit=1`,
        false,
      ],
      ['get', `${cmPath(fx, where, 'cm-a')}?resourceVersion=${FUTURE_RV}`, false],
      ['watch', `${cmCollection(fx, where)}?watch=true&resourceVersion=${FUTURE_RV}`, true],
      [
        'cross-space watch',
        `/clusters/*/api/v1/configmaps?watch=1&resourceVersion=${FUTURE_RV}`,
        true,
      ],
    ] as const)
      out.push({
        category: 'query',
        label: `${label} from a future resourceVersion`,
        method: 'GET',
        path,
        token: 'admin',
        write: false,
        futureRv: true,
        ...(watch ? { watch: true } : {}),
      })
  }
  for (const q of WRITE_PARAMS) {
    const where = rng.pick(['root', 'space'] as Where[])
    const name = `fz-q${n++}`
    out.push({
      category: 'query',
      label: `create ?${q.slice(0, 50)}`,
      method: 'POST',
      path: `${cmCollection(fx, where)}?${q}`,
      token: 'admin',
      contentType: JSON_TYPE,
      body: JSON.stringify(configMap(name)),
      write: true,
      mustRefuse: true,
      touches: [cmKey(fx, where, name)],
    })
    out.push({
      category: 'query',
      label: `merge patch ?${q.slice(0, 50)}`,
      method: 'PATCH',
      path: `${cmPath(fx, where, 'cm-b')}?${q}`,
      token: 'admin',
      contentType: MERGE,
      body: `{"data":{"q":"${n}"}}`,
      write: true,
      mustRefuse: true,
      touches: [cmKey(fx, where, 'cm-b')],
    })
    out.push({
      category: 'query',
      label: `update ?${q.slice(0, 50)}`,
      method: 'PUT',
      path: `${cmPath(fx, where, 'cm-a')}?${q}`,
      token: 'admin',
      contentType: JSON_TYPE,
      body: JSON.stringify(configMap('cm-a', { q: String(n) })),
      write: true,
      mustRefuse: true,
      touches: [cmKey(fx, where, 'cm-a')],
    })
  }
  for (const q of DELETE_PARAMS) {
    const where = rng.pick(['root', 'space'] as Where[])
    const victim = `victim-q${n++}`
    out.push({
      category: 'query',
      label: `delete ?${q}`,
      method: 'DELETE',
      path: `${cmPath(fx, where, 'cm-c')}?${q}`,
      token: 'admin',
      write: true,
      mustRefuse: true,
      touches: [cmKey(fx, where, 'cm-c')],
    })
    out.push({
      category: 'query',
      label: `delete collection ?${q}`,
      method: 'DELETE',
      path: `${cmCollection(fx, where)}?${q}`,
      token: 'admin',
      write: true,
      mustRefuse: true,
      touches: [],
      setup: [{ method: 'POST', path: cmCollection(fx, where), body: configMap(victim) }],
    })
  }
  for (const where of ['root', 'space'] as Where[])
    out.push({
      category: 'query',
      label: 'delete collection matching nothing',
      method: 'DELETE',
      path: `${cmCollection(fx, where)}?labelSelector=fuzz-none%3D1`,
      token: 'admin',
      write: true,
      touches: [],
    })
  return rng.shuffle(out)
}
