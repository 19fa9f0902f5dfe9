/**
 * The edge cluster's discovery, read into ServedResource rows: aggregated discovery
 * (`apidiscovery.k8s.io` v2 or v2beta1 `APIGroupDiscoveryList`, one answer each for /api and
 * /apis) when the cluster offers it, else the legacy documents (APIVersions, APIGroupList and one
 * APIResourceList per group version). Subresources are left out. `DiscoveryIndex` answers the two
 * questions the agent asks: is this group/version/resource served, and what is the preferred
 * version of a group/resource (upsync works at the edge's preferred version).
 */
import { z } from 'zod'
import type { ServedResource } from './kube-client.ts'

const AggregatedSchema = z.looseObject({
  kind: z.literal('APIGroupDiscoveryList'),
  items: z.array(
    z.looseObject({
      metadata: z.looseObject({ name: z.string().optional() }).optional(),
      versions: z.array(
        z.looseObject({
          version: z.string(),
          resources: z
            .array(
              z.looseObject({
                resource: z.string(),
                responseKind: z.looseObject({ kind: z.string() }).optional(),
                scope: z.string().optional(),
                verbs: z.array(z.string()).default([]),
              })
            )
            .default([]),
        })
      ),
    })
  ),
})

export const ResourceListSchema = z.looseObject({
  groupVersion: z.string(),
  resources: z.array(
    z.looseObject({
      name: z.string(),
      kind: z.string(),
      namespaced: z.boolean(),
      verbs: z.array(z.string()).default([]),
    })
  ),
})
export const ApiVersionsSchema = z.looseObject({ versions: z.array(z.string()) })
export const GroupListSchema = z.looseObject({
  groups: z.array(
    z.looseObject({
      name: z.string(),
      versions: z.array(z.looseObject({ groupVersion: z.string(), version: z.string() })),
      preferredVersion: z.looseObject({ version: z.string() }).optional(),
    })
  ),
})

/** The rows of an aggregated discovery answer, or undefined when it is not one. */
export function fromAggregated(doc: unknown): ServedResource[] | undefined {
  const parsed = AggregatedSchema.safeParse(doc)
  if (!parsed.success) return undefined
  const out: ServedResource[] = []
  for (const g of parsed.data.items)
    g.versions.forEach((v, i) => {
      for (const r of v.resources) {
        if (r.resource.includes('/')) continue
        out.push({
          group: g.metadata?.name ?? '',
          version: v.version,
          resource: r.resource,
          kind: r.responseKind?.kind ?? '',
          namespaced: r.scope === 'Namespaced',
          verbs: r.verbs,
          preferred: i === 0,
        })
      }
    })
  return out
}

/** The rows of one legacy APIResourceList. */
export function fromResourceList(doc: unknown, preferred: boolean): ServedResource[] {
  const list = ResourceListSchema.parse(doc)
  const slash = list.groupVersion.indexOf('/')
  const group = slash < 0 ? '' : list.groupVersion.slice(0, slash)
  const version = slash < 0 ? list.groupVersion : list.groupVersion.slice(slash + 1)
  return list.resources
    .filter((r) => !r.name.includes('/'))
    .map((r) => ({
      group,
      version,
      resource: r.name,
      kind: r.kind,
      namespaced: r.namespaced,
      verbs: r.verbs,
      preferred,
    }))
}

export type DiscoveryIndex = {
  all: readonly ServedResource[]
  find(group: string, version: string, resource: string): ServedResource | undefined
  /** The group/resource at the group's preferred version (else the first version listed). */
  preferred(group: string, resource: string): ServedResource | undefined
}

export function indexDiscovery(rows: readonly ServedResource[]): DiscoveryIndex {
  const exact = new Map<string, ServedResource>()
  const pref = new Map<string, ServedResource>()
  for (const r of rows) {
    exact.set(`${r.group}/${r.version}/${r.resource}`, r)
    const gr = `${r.group}/${r.resource}`
    const seen = pref.get(gr)
    if (!seen || (r.preferred && !seen.preferred)) pref.set(gr, r)
  }
  return {
    all: rows,
    find: (g, v, r) => exact.get(`${g}/${v}/${r}`),
    preferred: (g, r) => pref.get(`${g}/${r}`),
  }
}
