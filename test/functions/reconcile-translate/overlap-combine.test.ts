/**
 * The pure part of overlapping workloads at one destination (overlap.ts): what counts as a source
 * (a workload space, not a placement), which spaces are left out for their group, what a merge
 * ignores (kcp's system keys), that customization happens before the merge, and that spaces of
 * different trust scopes are never merged (trust-scopes.ts): the copy the destination holds stays
 * with its spaces, a new identity claimed by two scopes goes to neither, a mixture never goes.
 */
import { describe, expect, it } from 'vitest'
import { combine, gather } from '../../../functions/reconcile-translate/overlap.ts'
import { createRegistry } from '../../../lib/kube/registry.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { PlacementRef } from '../../../lib/placement/snapshot.ts'
import type { Selection, SourceObject } from '../../../lib/placement/types.ts'
import { tenancyPolicy, type WorkloadGrant } from '../../../lib/tenancy/policy.ts'

const SINGLE_TEAM = tenancyPolicy([], [])
/** Spaces a and a2 share the trust scope team-a; b is alone in team-b. */
const GRANTED = tenancyPolicy(
  [],
  [
    ['ga', ['a', 'a2'], 'team-a'],
    ['gb', ['b'], 'team-b'],
  ].map(([name, spaces, trustScope]) => ({
    apiVersion: 'tenancy.edgeplane.io/v1alpha1',
    kind: 'PlacementGrant' as const,
    metadata: { name: name as string },
    spec: { workloadSpaces: spaces as string[], trustScope: trustScope as string },
  }))
)
const granted = (space: string) => GRANTED.grantOf(space)

const crd = (versions: string[]): KubeObject => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.io' },
  spec: {
    group: 'example.io',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: versions.map((name, i) => ({
      name,
      served: true,
      storage: i === 0,
      schema: { openAPIV3Schema: { type: 'object' } },
    })),
  },
})

const cm = (space: string, rv: string, data: Record<string, string>): SourceObject => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespaced: true,
  object: {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'shared',
      namespace: 'ns',
      resourceVersion: rv,
      annotations: { 'kcp.io/cluster': space },
    },
    data,
  },
})

const widget = (version: string, name: string): SourceObject => ({
  group: 'example.io',
  version,
  resource: 'widgets',
  namespaced: true,
  object: {
    apiVersion: `example.io/${version}`,
    kind: 'Widget',
    metadata: { name, namespace: 'ns', resourceVersion: '1' },
  },
})

const sel = (
  spaceId: string,
  name: string,
  objects: SourceObject[],
  more: { crds?: KubeObject[]; grant?: WorkloadGrant | undefined } = {}
) => ({
  ref: {
    spaceId,
    placement: { apiVersion: 'edge.kcp.io/v1alpha1', kind: 'EdgePlacement', metadata: { name } },
    slice: { apiVersion: 'edge.kcp.io/v1alpha1', kind: 'SinglePlacementSlice', metadata: {} },
  } as PlacementRef,
  selection: { namespaces: ['ns'], objects, skipped: [], problems: [] } as Selection,
  registry: createRegistry(more.crds ?? []),
  grant: 'grant' in more ? more.grant : SINGLE_TEAM.grantOf(spaceId),
})

const highest = (g: ReturnType<typeof gather>) => (group: string) =>
  g.groups.get(group)?.candidates[0] ?? ''

describe('gather and combine', () => {
  it('counts two placements of one space as one source: no conflict', () => {
    const same = cm('a', '5', { k: 'v' })
    const g = gather([sel('a', 'ep1', [same]), sel('a', 'ep2', [same])])
    expect(g.byKey.get('/configmaps/ns/shared')?.map((c) => c.placements)).toEqual([['ep1', 'ep2']])
    expect(combine(g, highest(g)).conflicts).toEqual([])
  })

  it('ignores the spaces own kcp.io/cluster annotations when merging', () => {
    const g = gather([
      sel('a', 'ep', [cm('a', '5', { k: 'v' })]),
      sel('b', 'ep', [cm('b', '6', { k: 'v' })]),
    ])
    const out = combine(g, highest(g))
    expect(out.conflicts).toEqual([])
    expect(out.objects.get('/configmaps/ns/shared')?.object.data).toEqual({ k: 'v' })
  })

  it('reports a merge conflict with the sources and their placements', () => {
    const g = gather([
      sel('a', 'ep-a', [cm('a', '5', { k: '1' })]),
      sel('b', 'ep-b', [cm('b', '6', { k: '2' })]),
    ])
    const [c, ...more] = combine(g, highest(g)).conflicts
    expect(more).toEqual([])
    expect(c?.reason).toBe('MergeConflict')
    expect(c?.fields).toEqual([{ field: 'data[k]', sources: ['a', 'b'] }])
    expect(c?.sources.map((s) => [s.spaceId, s.placements])).toEqual([
      ['a', ['ep-a']],
      ['b', ['ep-b']],
    ])
  })

  it('customizes each source before merging', () => {
    const g = gather([
      sel('a', 'ep', [cm('a', '5', { k: '1' })]),
      sel('b', 'ep', [cm('b', '6', { k: '2' })]),
    ])
    const customize = (_space: string, s: SourceObject) => ({ ...s.object, data: { k: 'same' } })
    const out = combine(g, highest(g), { customize })
    expect(out.conflicts).toEqual([])
    expect(out.objects.get('/configmaps/ns/shared')?.object.data).toEqual({ k: 'same' })
  })

  it('leaves out the objects of a space thrown out for their group and reads the rest at the choice', () => {
    const g = gather([
      sel('a', 'ep-a', [widget('v1', 'w')], { crds: [crd(['v1'])] }),
      sel('b', 'ep-b', [widget('v3', 'w'), widget('v3', 'only-b')], { crds: [crd(['v3', 'v2'])] }),
      sel('c', 'ep-c', [widget('v2', 'only-c')], { crds: [crd(['v2', 'v1'])] }),
    ])
    expect(g.groups.get('example.io')).toEqual({
      candidates: ['v2'],
      kept: ['b', 'c'],
      thrownOut: ['a'],
    })
    const out = combine(g, highest(g))
    const w = out.objects.get('example.io/widgets/ns/w')
    expect(w?.spaceId).toBe('b')
    expect(w?.object.apiVersion).toBe('example.io/v2')
    expect(w?.source.version).toBe('v2')
    expect(out.objects.get('example.io/widgets/ns/only-c')?.object.apiVersion).toBe('example.io/v2')
    expect(out.conflicts.map((c) => [c.reason, c.key, c.left, c.kept])).toEqual([
      ['APIVersionConflict', 'example.io/widgets/ns/w', ['a'], ['b', 'c']],
    ])
  })
})

describe('trust scopes', () => {
  const secret = (space: string, rv: string, data: Record<string, string>): SourceObject => ({
    ...cm(space, rv, data),
    resource: 'secrets',
    object: { ...cm(space, rv, data).object, kind: 'Secret' },
  })
  const KEY = '/secrets/ns/shared'
  const tenants = (g = granted) => [
    sel('a', 'ep-a', [secret('a', '5', { user: 'a' })], { grant: g('a') }),
    sel('b', 'ep-b', [secret('b', '6', { user: 'b', password: 'b-secret' })], { grant: g('b') }),
  ]

  it('never merges two scopes: a new identity claimed by both goes to neither', () => {
    const g = gather(tenants())
    const out = combine(g, highest(g))
    expect(out.objects.has(KEY)).toBe(false)
    expect(out.conflicts.map((c) => [c.reason, c.left, c.kept])).toEqual([
      ['TrustScopeConflict', ['a', 'b'], []],
    ])
    expect(JSON.stringify(out.conflicts)).not.toContain('b-secret')
    expect(JSON.stringify(out.conflicts)).not.toContain('password')
  })

  it("keeps the copy the destination holds with its scope, nothing of the other's in it", () => {
    const g = gather(tenants())
    const out = combine(g, highest(g), { holders: new Map([[KEY, new Set(['a'])]]) })
    const copy = out.objects.get(KEY)
    expect(copy?.object.data).toEqual({ user: 'a' })
    expect(copy?.spaces).toEqual(['a'])
    expect(out.conflicts.map((c) => [c.reason, c.left, c.kept])).toEqual([
      ['TrustScopeConflict', ['b'], ['a']],
    ])
  })

  it('sends a mixture of two scopes to no one, even when the destination held it', () => {
    const g = gather(tenants())
    const out = combine(g, highest(g), { holders: new Map([[KEY, new Set(['a', 'b'])]]) })
    expect(out.objects.has(KEY)).toBe(false)
  })

  it('lets a space of the holding scope join the copy; a space that is gone shares no scope', () => {
    const g = gather([
      ...tenants(),
      sel('a2', 'ep-a2', [secret('a2', '7', { extra: 'a2' })], { grant: granted('a2') }),
    ])
    const out = combine(g, highest(g), { holders: new Map([[KEY, new Set(['a'])]]) })
    expect(out.objects.get(KEY)?.object.data).toEqual({ user: 'a', extra: 'a2' })
    expect(out.objects.get(KEY)?.spaces).toEqual(['a', 'a2'])
    const gone = gather([
      sel('a', 'ep-a', [secret('a', '5', { user: 'a' })], { grant: granted('a') }),
      sel('a2', 'ep-a2', [secret('a2', '7', { extra: 'a2' })], { grant: undefined }),
    ])
    expect(combine(gone, highest(gone)).conflicts.map((c) => c.reason)).toEqual([
      'TrustScopeConflict',
    ])
  })

  it('still merges within one scope (and in single-team mode), ordered by the authored resourceVersion', () => {
    for (const g of [
      gather(tenants(SINGLE_TEAM.grantOf)),
      gather([
        sel('a', 'ep-a', [secret('a', '9', { user: 'a' })], { grant: granted('a') }),
        sel('a2', 'ep-a2', [secret('a2', '6', { user: 'a2' })], { grant: granted('a2') }),
      ]),
    ]) {
      const out = combine(g, highest(g))
      expect(out.conflicts.map((c) => c.reason)).toEqual(['MergeConflict'])
      expect(out.objects.get(KEY)?.spaces).toHaveLength(2)
    }
    const g = gather([
      sel('a', 'ep-a', [secret('a', '9', { user: 'a' })], { grant: granted('a') }),
      sel('a2', 'ep-a2', [secret('a2', '6', { user: 'a2' })], { grant: granted('a2') }),
    ])
    expect(combine(g, highest(g)).objects.get(KEY)?.object.data).toEqual({ user: 'a' })
    const authored = new Map([
      [`a/${KEY}`, 3n],
      [`a2/${KEY}`, 6n],
    ])
    expect(combine(g, highest(g), { authored }).objects.get(KEY)?.object.data).toEqual({
      user: 'a2',
    })
  })
})
