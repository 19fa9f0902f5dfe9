/**
 * The "what" of one EdgePlacement (v1alpha1, reference §2.1 and §7.3) over a snapshot of its
 * workload space. `namespaceSelector` (one LabelSelector; absent, null or {} matches every
 * namespace) picks live Namespace objects by their labels (with `kubernetes.io/metadata.name`, which
 * kube keeps on every Namespace), and then ALL live namespaced objects in them. `nonNamespacedObjects` picks live cluster-scoped objects: group equal AND resource listed
 * (or "*") AND (name listed or "*", OR labels matching any of its selectors); empty lists match
 * nothing. Everything reached is then sorted by category (lib/apis/categories.ts): not-for-edge
 * kinds, unsupported kinds, system infrastructure and built-in definitions are skipped with a
 * reason; a built-in namespace still counts as selected (a workload may place objects into
 * kube-system), only its Namespace object is not managed. A skipped entry is made for every
 * reached object, so one for a built-in Namespace only when nonNamespacedObjects reaches it (its
 * contents being selected is not a reason to report it). Last, the tenancy allow list
 * (grant-rule.ts): an object of a privileged resource the space's grants (`snap.grant`, read with
 * the snapshot) do not list is skipped as NotGranted, so it is never sent, counted or previewed
 * as sent. An invalid selector matches nothing and is listed in `problems`.
 */
import { type Builtins, isBuiltinDefinition } from '../apis/builtins.ts'
import { categoryOf, EDGE_GROUP, isSystemInfrastructure } from '../apis/categories.ts'
import { LabelSelectorSchema } from '../apis/meta.ts'
import { NAMESPACE_NAME_LABEL } from '../hub/namespace-label.ts'
import {
  type LabelMatcher,
  type LabelSelector,
  labelSelectorRequirements,
  matchesRequirements,
} from '../kube/label-selector.ts'
import type { KubeObject } from '../kube/types.ts'
import { notGranted } from './grant-rule.ts'
import type { ResourceGrant, Selection, Skipped, SourceObject, SpaceSnapshot } from './types.ts'

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []

const isLive = (o: SourceObject) => !o.object.metadata?.deletionTimestamp
const nameOf = (o: SourceObject) => o.object.metadata?.name ?? ''
const isNamespaceObject = (o: SourceObject) => o.group === '' && o.resource === 'namespaces'

/** A matcher for a LabelSelector found at `at`; an invalid one matches nothing and is reported. */
function selectorMatcher(
  raw: unknown,
  at: string,
  whenAbsent: boolean,
  problems: string[]
): LabelMatcher {
  if (raw === undefined || raw === null) return () => whenAbsent
  const parsed = LabelSelectorSchema.safeParse(raw)
  const requirements = parsed.success
    ? labelSelectorRequirements(parsed.data as LabelSelector)
    : undefined
  if (!requirements) {
    const why = parsed.success
      ? 'invalid requirements'
      : parsed.error.issues
          .map((i) => `${[at, ...i.path.map(String)].join('.')}: ${i.message}`)
          .join('; ')
    problems.push(`${at} is not a valid label selector and matches nothing: ${why}`)
    return () => false
  }
  return (labels) => matchesRequirements(labels, requirements)
}

type ObjectTest = (o: SourceObject) => boolean

/** One `nonNamespacedObjects` member as a test of cluster-scoped objects. */
function referenceSetTest(raw: unknown, at: string, problems: string[]): ObjectTest {
  if (!isRecord(raw)) return () => false
  const group = typeof raw.apiGroup === 'string' ? raw.apiGroup : ''
  const resources = strings(raw.resources)
  const names = strings(raw.resourceNames)
  const selectors = (Array.isArray(raw.labelSelectors) ? raw.labelSelectors : []).map((s, j) =>
    selectorMatcher(s, `${at}.labelSelectors[${j}]`, false, problems)
  )
  return (o) =>
    o.group === group &&
    (resources.includes('*') || resources.includes(o.resource)) &&
    (names.includes('*') ||
      names.includes(nameOf(o)) ||
      selectors.some((m) => m(o.object.metadata?.labels)))
}

function describe(o: SourceObject): string {
  const ns = o.object.metadata?.namespace
  const id = ns ? `${ns}/${nameOf(o)}` : nameOf(o)
  const gr = o.group ? `${o.resource}.${o.group}` : o.resource
  return `${o.object.kind || gr} "${id}" (${gr})`
}

/** Why a reached object does not go, or undefined when it is selected. */
function skipOf(o: SourceObject, builtins: Builtins, grant: ResourceGrant): Skipped | undefined {
  const category = categoryOf(o.group, o.resource)
  const base = {
    group: o.group,
    resource: o.resource,
    namespace: o.object.metadata?.namespace ?? '',
    name: nameOf(o),
  }
  if (o.group === EDGE_GROUP || category === 'not-for-edge') {
    const message = `${describe(o)} belongs to the center and is never propagated`
    return { ...base, reason: 'NotForEdge', message }
  }
  if (category === 'unsupported') {
    const message = `${describe(o)} is of a kind that cannot be placed; remove it from the placement`
    return { ...base, reason: 'Unsupported', message }
  }
  if (isSystemInfrastructure(o.group, o.resource, o.object)) {
    const message = `${describe(o)} is made by every cluster for itself and is not propagated`
    return { ...base, reason: 'SystemInfrastructure', message }
  }
  if (isBuiltinDefinition(o.group, o.resource, o.object, builtins)) {
    const message = `${describe(o)} is built into every edge cluster and is not managed by placement`
    return { ...base, reason: 'BuiltinDefinition', message }
  }
  return notGranted(o, grant, describe(o))
}

const sortKey = (o: { group: string; resource: string; namespace: string; name: string }) =>
  [o.group, o.resource, o.namespace, o.name].join('\u0000')
const objKey = (o: SourceObject) =>
  sortKey({
    group: o.group,
    resource: o.resource,
    namespace: o.object.metadata?.namespace ?? '',
    name: nameOf(o),
  })
const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T) => {
    const ka = key(a)
    const kb = key(b)
    return ka < kb ? -1 : ka > kb ? 1 : 0
  }

/**
 * A Namespace's labels as kube-apiserver keeps them: with `kubernetes.io/metadata.name` set to its
 * name, also for one stored before the hub set it (lib/hub/namespace-label.ts).
 */
const namespaceLabels = (o: SourceObject) => {
  const labels = o.object.metadata?.labels
  const name = nameOf(o)
  return name ? { ...(labels ?? {}), [NAMESPACE_NAME_LABEL]: name } : labels
}

export function selectForPlacement(
  ep: KubeObject,
  snap: SpaceSnapshot,
  builtins: Builtins
): Selection {
  const spec: Record<string, unknown> = isRecord(ep.spec) ? ep.spec : {}
  const problems: string[] = []
  const nsMatches = selectorMatcher(
    spec.namespaceSelector,
    'spec.namespaceSelector',
    true,
    problems
  )
  const refSets = (Array.isArray(spec.nonNamespacedObjects) ? spec.nonNamespacedObjects : []).map(
    (s, i) => referenceSetTest(s, `spec.nonNamespacedObjects[${i}]`, problems)
  )

  const live = snap.objects.filter(isLive)
  const namespaces = new Set(
    live
      .filter((o) => isNamespaceObject(o) && nsMatches(namespaceLabels(o)))
      .map(nameOf)
      .filter((n) => n !== '')
  )
  const reached = live.filter((o) =>
    o.namespaced
      ? namespaces.has(o.object.metadata?.namespace ?? '')
      : refSets.some((test) => test(o))
  )

  const objects: SourceObject[] = []
  const skipped: Skipped[] = []
  for (const o of reached) {
    const skip = skipOf(o, builtins, snap.grant)
    if (skip) skipped.push(skip)
    else objects.push(o)
  }
  return {
    namespaces: [...namespaces].sort(),
    objects: objects.sort(byKey(objKey)),
    skipped: skipped.sort(byKey(sortKey)),
    problems,
  }
}
