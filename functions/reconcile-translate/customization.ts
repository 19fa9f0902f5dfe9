/**
 * Customization in the translate step: one selected object for one destination. The object's
 * fresh projection (project.ts, no previous copy) is customized by lib/customize with the
 * Customizer its `edge.kcp.io/customizer` annotation names (looked up in the object's workload
 * space) and the parameters of the destination's Location (the one its SinglePlacement names:
 * `cluster` + `locationName`; when several Locations of one inventory space select the same
 * SyncTarget, the first by name); the result is then projected over the previous copy as usual.
 * So customization happens before the body is hashed, and a destination whose result equals
 * another's shares its body. Anything that goes wrong (invalid reference, missing or invalid
 * Customizer, missing Location while parameters are needed, undefined parameter, bad path or
 * value, failed replacement) sends the object uncustomized and is a problem whose `detail` never
 * names the destination, so one report can cover every destination with that problem. The
 * inputs are read through the batch's snapshot (one list of Customizers per workload space and of
 * Locations per inventory space), and outcomes are memoized per batch by (object version,
 * Location) so reporting over a placement's destinations reuses what the mailboxes computed.
 */
import { type DecodeResult, describeIssues } from '../../lib/apis/decode.ts'
import type { CustomizerObject, LocationObject } from '../../lib/apis/edge-objects.ts'
import { customizerRefOf, formatRef, wantsExpansion } from '../../lib/customize/annotations.ts'
import { customizeObject } from '../../lib/customize/customize.ts'
import { locationParameters, type Parameters } from '../../lib/customize/expand.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { projectBody } from '../../lib/placement/project.ts'
import type { Snapshot } from '../../lib/placement/snapshot.ts'

export type LocationRef = { cluster: string; name: string }

export type CustomizationProblem = {
  reason: 'CustomizerNotFound' | 'UndefinedParameter' | 'CustomizationFailed'
  /** What went wrong, the same text for every destination with this problem. */
  detail: string
}

export type Outcome = { body: KubeObject } | { problem: CustomizationProblem }

/** A batch's customization inputs: Customizers per workload space, Locations per inventory space. */
export type CustomizeInputs = {
  customizers: ReadonlyMap<string, ReadonlyMap<string, DecodeResult<CustomizerObject>>>
  locations: ReadonlyMap<string, ReadonlyMap<string, LocationObject>>
}

export async function loadInputs(
  snapshot: Pick<Snapshot, 'customizers' | 'locations'>,
  spaces: Iterable<string>,
  clusters: Iterable<string>
): Promise<CustomizeInputs> {
  const load = <T>(ids: Iterable<string>, read: (id: string) => Promise<Map<string, T>>) =>
    Promise.all([...new Set(ids)].map(async (id) => [id, await read(id)] as const))
  const [customizers, locations] = await Promise.all([
    load(spaces, snapshot.customizers),
    load(clusters, snapshot.locations),
  ])
  return { customizers: new Map(customizers), locations: new Map(locations) }
}

const problem = (reason: CustomizationProblem['reason'], detail: string): Outcome => ({
  problem: { reason, detail },
})

/** The customized fresh projection of `object` (of workload space `spaceId`) for a destination. */
export function customizeFor(
  inputs: CustomizeInputs,
  spaceId: string,
  object: KubeObject,
  location: LocationRef | undefined
): Outcome {
  const ref = customizerRefOf(object)
  if (ref.kind === 'invalid') return problem('CustomizationFailed', ref.message)
  let named = ''
  let customizer: CustomizerObject | undefined
  if (ref.kind === 'ref') {
    named = formatRef(ref.ref)
    const found = inputs.customizers.get(spaceId)?.get(named)
    if (!found) return problem('CustomizerNotFound', `Customizer "${named}" not found`)
    if (!found.ok) {
      const why = describeIssues(found.problem)
      return problem('CustomizationFailed', `Customizer "${named}" is invalid: ${why}`)
    }
    customizer = found.value
  }
  const replacements = customizer?.replacements ?? []
  const expandObject = wantsExpansion(object)
  const expandReplacements = customizer !== undefined && wantsExpansion(customizer)
  let parameters: Parameters = () => undefined
  if (expandObject || expandReplacements) {
    const found = location && inputs.locations.get(location.cluster)?.get(location.name)
    if (!found)
      return problem(
        'CustomizationFailed',
        "the destination's Location was not found, so no parameter can be expanded"
      )
    parameters = locationParameters(found)
  }
  const res = customizeObject(projectBody(object), {
    expandObject,
    replacements,
    expandReplacements,
    parameters,
  })
  if (res.ok) return { body: res.object }
  const { reason, message } = res.failure
  return problem(
    reason,
    reason === 'CustomizationFailed' && named ? `Customizer "${named}": ${message}` : message
  )
}

/** Per-batch memo of outcomes: bodies for the mailbox at hand, problems for the reports. */
export type Customizations = {
  /** The outcome for a destination (computed; its problem, if any, remembered). */
  outcome(inputs: CustomizeInputs, spaceId: string, object: KubeObject, at?: LocationRef): Outcome
  /** Only the problem, from the memo when this batch computed it already. */
  problem(
    inputs: CustomizeInputs,
    spaceId: string,
    object: KubeObject,
    at?: LocationRef
  ): CustomizationProblem | undefined
}

export function createCustomizations(): Customizations {
  const memo = new Map<string, CustomizationProblem | null>()
  const keyOf = (spaceId: string, o: KubeObject, at?: LocationRef) =>
    [spaceId, o.metadata.uid, o.metadata.resourceVersion, at?.cluster, at?.name].join('\u0000')
  const outcome: Customizations['outcome'] = (inputs, spaceId, object, at) => {
    const out = customizeFor(inputs, spaceId, object, at)
    memo.set(keyOf(spaceId, object, at), 'problem' in out ? out.problem : null)
    return out
  }
  return {
    outcome,
    problem(inputs, spaceId, object, at) {
      const key = keyOf(spaceId, object, at)
      const known = memo.get(key)
      if (known !== undefined) return known ?? undefined
      const out = outcome(inputs, spaceId, object, at)
      return 'problem' in out ? out.problem : undefined
    },
  }
}
