/**
 * Translation under a Rollout (held-selections.ts, rollout-holds.ts; the world: rollout-world.ts):
 * each destination gets the revision its wave holds, stamped; an object created since is held
 * back and one deleted at the source still sent while the revision holds it; nothing changes
 * without an adopted Rollout; a wave shares its copies, through its promotion too; a failed read
 * fails the key and keeps the copies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildControllers } from '../../../functions/controllers.ts'
import { ROLLOUTS } from '../../../lib/apis/gvr.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import { createRevisionStore } from '../../../lib/rollout/revision-store.ts'
import type { ProjectionStore } from '../../../lib/store/projection-types.ts'
import { BASE } from '../../helpers/hub.ts'
import {
  all,
  CM,
  client,
  confirmRemovals,
  controllers,
  converge,
  createRollout,
  cut,
  failingTranslate,
  hub,
  keyOf,
  mailboxOf,
  refOf,
  setConfigMap,
  setStatus,
  setUpWorld,
  shareOf,
  WS,
} from './rollout-world.ts'

beforeAll(setUpWorld, 60_000)

afterAll(async () => {
  await hub?.close()
})

const everywhere = (list: string[]) => ({ c1: list, c2: list, r1: list, r2: list })

describe('translation under a Rollout', () => {
  it('sends the live objects, unstamped, without a Rollout and before one is adopted', async () => {
    await converge()
    expect(await all()).toEqual(everywhere(['a=1@-', 'old=1@-']))
    const mb = await mailboxOf('c1')
    const before = (await hub.call('GET', `/clusters/${mb}/api/v1/namespaces/shop/configmaps/a`))
      .body as KubeObject
    await createRollout('shop')
    // A Rollout with no completed revision holds nothing: exactly the content of before.
    const outcomes = await converge()
    const translated = outcomes.filter((o) => o.startsWith('translate'))
    expect(translated.length).toBeGreaterThan(0)
    expect(translated.every((o) => o.endsWith('unchanged'))).toBe(true)
    const after = (await hub.call('GET', `/clusters/${mb}/api/v1/namespaces/shop/configmaps/a`))
      .body as KubeObject
    expect(after).toEqual(before)
    await setConfigMap('a', '2')
    await converge()
    expect(await all()).toEqual(everywhere(['a=2@-', 'old=1@-']))
  })

  it('stamps every copy from the adopted revision', async () => {
    await cut(1)
    await setStatus(1, 1, 1)
    await converge()
    expect(await all()).toEqual(everywhere(['a=2@shop/1', 'old=1@shop/1']))
  })

  it('gives a promoted wave its revision and keeps the later wave at the one it holds', async () => {
    await setConfigMap('a', '3')
    await setConfigMap('fresh', '3')
    await client.delete(WS, CM, 'old', { namespace: 'shop' })
    await cut(2)
    await setStatus(1, 2, 1)
    await converge()
    const promoted = ['a=3@shop/2', 'fresh=3@shop/2']
    // rest: revision 1's body of a (live is 3), fresh held back, old still sent though deleted.
    const held = ['a=2@shop/1', 'old=1@shop/1']
    expect(await all()).toEqual({ c1: promoted, c2: promoted, r1: held, r2: held })
  })

  it('shares copies within a wave, never across revisions', async () => {
    await confirmRemovals()
    await converge()
    const [c1, c2, r1, r2] = await Promise.all((['c1', 'c2', 'r1', 'r2'] as const).map(shareOf))
    expect(c1).toBeDefined()
    expect(r1).toBeDefined()
    expect(c2).toBe(c1)
    expect(r2).toBe(r1)
    expect(r1).not.toBe(c1)
  })

  it('promotes a whole wave with one shared write, not one per mailbox', async () => {
    await setStatus(2, 2, 2)
    await converge()
    await confirmRemovals()
    await converge()
    await setConfigMap('a', '4')
    await cut(3)
    await setStatus(2, 3, 2)
    await converge()
    const rest = ['a=3@shop/2', 'fresh=3@shop/2']
    expect((await all()).r1).toEqual(rest)
    // The same copies' keys at two revisions: two shared manifests, never one.
    expect((await all()).c1).toEqual(['a=4@shop/3', 'fresh=3@shop/3'])
    expect(await shareOf('c1')).not.toBe(await shareOf('r1'))
    expect(await shareOf('r2')).toBe(await shareOf('r1'))
    // Promote rest: its mailboxes' copies change content only, in the shared manifest they hold.
    await setStatus(2, 3, 3)
    const p = hub.deps.projections
    const planned: string[] = []
    const spy: ProjectionStore = {
      ...p,
      writeManifests: (requests) => {
        planned.push(...requests.map((r) => r.mailbox))
        return p.writeManifests(requests)
      },
    }
    const translate = buildControllers({ ...hub.deps, projections: spy }, BASE).find(
      (c) => c.name === 'translate'
    )
    const keys = [await keyOf('r1'), await keyOf('r2')]
    const session = translate?.session?.(keys)
    if (!session) throw new Error('translate has sessions')
    for (const k of keys) await session.reconcile(k)
    await session.settle?.()
    expect(planned).toHaveLength(1)
    const now = ['a=4@shop/3', 'fresh=3@shop/3']
    expect(await all()).toEqual(everywhere(now))
  })

  it('fails the key and keeps the copies when the Rollouts or a record cannot be read', async () => {
    // Roll rest back to revision 2: a content move a failed read must not make, nor a removal.
    await setStatus(2, 3, 2)
    const before = await all()
    for (const fail of [{ rollouts: true }, { records: true }]) {
      const res = await runKeys(failingTranslate(fail), [await keyOf('r1')], silentLogger)
      expect(res.map((r) => r.ok)).toEqual([false])
      expect(res[0]?.outcome).toContain('injected read failure')
      expect(await all()).toEqual(before)
    }
    // A record the status names that is gone: the same.
    await createRevisionStore(hub.store.kv).prune(await refOf(), new Set([3]))
    const translate = controllers.find((c) => c.name === 'translate')
    if (!translate) throw new Error('translate')
    const missing = await runKeys(translate, [await keyOf('r1')], silentLogger)
    expect(missing[0]?.ok).toBe(false)
    expect(missing[0]?.outcome).toContain('revision 2 is not stored')
    expect(await all()).toEqual(before)
  })

  it('sends the live objects, unstamped, once the Rollout is gone', async () => {
    await client.delete(WS, ROLLOUTS, 'shop')
    await converge()
    expect(await all()).toEqual(everywhere(['a=4@-', 'fresh=3@-']))
  })
  it('stamps a customized copy too: the stamp goes on before customization', async () => {
    await client.create(WS, CM, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'tpl',
        namespace: 'shop',
        annotations: { 'edge.kcp.io/expand-parameters': 'true' },
      },
      data: { v: 'ring-%(ring)' },
    })
    await createRollout('again')
    await cut(1, 'again')
    await setStatus(1, 1, 1, 'again')
    await converge()
    const want = (ring: string) => ['a=4@again/1', 'fresh=3@again/1', `tpl=ring-${ring}@again/1`]
    expect(await all()).toEqual({
      c1: want('canary'),
      c2: want('canary'),
      r1: want('rest'),
      r2: want('rest'),
    })
  })
})
