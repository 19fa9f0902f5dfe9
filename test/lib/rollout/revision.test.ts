/** A Rollout's governed content and when a move of it is cut (lib/rollout/revision.ts). */
import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { EXECUTING_COUNT_ANNOTATION } from '../../../lib/placement/annotations.ts'
import type { SourceObject } from '../../../lib/placement/types.ts'
import {
  contentKeyOf,
  cutDecision,
  governedContent,
  type RevisionRecord,
} from '../../../lib/rollout/revision.ts'

const cm = (
  name: string,
  data: Record<string, string>,
  extra: Partial<KubeObject['metadata']> = {}
) =>
  ({
    group: '',
    version: 'v1',
    resource: 'configmaps',
    namespaced: true,
    object: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'shop', resourceVersion: '7', ...extra },
      data,
    } as KubeObject,
  }) satisfies SourceObject

describe('governedContent', () => {
  it('keys and hashes each object, sorted, ignoring what the steps write', async () => {
    const a = await governedContent([cm('b', { x: '1' }), cm('a', { y: '2' })])
    expect(a.entries.map((e) => e.key)).toEqual(['/configmaps/shop/a', '/configmaps/shop/b'])
    const b = await governedContent([
      cm(
        'a',
        { y: '2' },
        { resourceVersion: '99', annotations: { [EXECUTING_COUNT_ANNOTATION]: '3' } }
      ),
      cm('b', { x: '1' }),
    ])
    expect(contentKeyOf(b.entries)).toBe(contentKeyOf(a.entries))
    const c = await governedContent([cm('a', { y: '3' }), cm('b', { x: '1' })])
    expect(contentKeyOf(c.entries)).not.toBe(contentKeyOf(a.entries))
    expect(a.bodies.get(a.entries[0]?.hash ?? '')?.metadata.resourceVersion).toBeUndefined()
  })

  it('ignores the status the edges return: a report cuts no revision, a spec change does', async () => {
    const deploy = (image: string, status: Record<string, unknown>): SourceObject => ({
      group: 'apps',
      version: 'v1',
      resource: 'deployments',
      namespaced: true,
      object: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'shop' },
        spec: { template: { spec: { containers: [{ name: 'web', image }] } } },
        status,
      } as unknown as KubeObject,
    })
    const before = await governedContent([deploy('nginx:1', { readyReplicas: 0 })])
    const reported = await governedContent([deploy('nginx:1', { readyReplicas: 2 })])
    expect(contentKeyOf(reported.entries)).toBe(contentKeyOf(before.entries))
    expect([...before.bodies.values()][0]).not.toHaveProperty('status')
    const changed = await governedContent([deploy('nginx:2', { readyReplicas: 2 })])
    expect(contentKeyOf(changed.entries)).not.toBe(contentKeyOf(before.entries))
  })
})

describe('cutDecision', () => {
  const NOW = 1_000_000
  const record = async (n: number, objects: SourceObject[]): Promise<RevisionRecord> => ({
    number: n,
    cutAt: 'x',
    objects: (await governedContent(objects)).entries,
  })

  it('cuts the first revision at once', async () => {
    const { entries } = await governedContent([cm('a', {})])
    expect(cutDecision({ newest: undefined, entries, settling: undefined, nowMs: NOW })).toEqual({
      kind: 'cut',
    })
  })

  it('does nothing for the newest revision’s content', async () => {
    const { entries } = await governedContent([cm('a', {})])
    expect(
      cutDecision({
        newest: await record(1, [cm('a', {})]),
        entries,
        settling: undefined,
        nowMs: NOW,
      })
    ).toEqual({
      kind: 'same',
    })
  })

  it('waits for a new content to settle, and starts over when it moves again', async () => {
    const newest = await record(1, [cm('a', {})])
    const first = (await governedContent([cm('a', { v: '2' })])).entries
    const d1 = cutDecision({ newest, entries: first, settling: undefined, nowMs: NOW })
    expect(d1).toMatchObject({ kind: 'settling', wakeAtMs: NOW + 5_000 })
    const settling = d1.kind === 'settling' ? d1.settling : undefined
    expect(cutDecision({ newest, entries: first, settling, nowMs: NOW + 4_999 }).kind).toBe(
      'settling'
    )
    expect(cutDecision({ newest, entries: first, settling, nowMs: NOW + 5_000 })).toEqual({
      kind: 'cut',
    })
    const moved = (await governedContent([cm('a', { v: '3' })])).entries
    expect(cutDecision({ newest, entries: moved, settling, nowMs: NOW + 5_000 })).toMatchObject({
      kind: 'settling',
      wakeAtMs: NOW + 10_000,
    })
  })

  it('counts a removed object as a change', async () => {
    const newest = await record(1, [cm('a', {}), cm('b', {})])
    const { entries } = await governedContent([cm('a', {})])
    expect(cutDecision({ newest, entries, settling: undefined, nowMs: NOW }).kind).toBe('settling')
  })
})
