/**
 * The two annotations a workload object uses to ask for customization (reference §2.7) and how
 * they are read. `edge.kcp.io/expand-parameters: "true"` (exactly that string) on an object or a
 * Customizer turns parameter expansion on. `edge.kcp.io/customizer` names the object's Customizer:
 * `name` is in the object's own namespace, `namespace/name` anywhere in the workload space. A
 * cluster-scoped object has no namespace of its own, so a bare `name` there is an error to report
 * (as the reference says, such objects must use `namespace/name`); we do not guess `default`.
 * Anything else (empty parts, more than one `/`) is an invalid reference, reported as such.
 */
import type { KubeObject } from '../kube/types.ts'

export const CUSTOMIZER_ANNOTATION = 'edge.kcp.io/customizer'
export const EXPAND_PARAMETERS_ANNOTATION = 'edge.kcp.io/expand-parameters'

export type CustomizerRef = { namespace: string; name: string }

export type CustomizerRefResult =
  | { kind: 'none' }
  | { kind: 'ref'; ref: CustomizerRef }
  | { kind: 'invalid'; value: string; message: string }

/** Whether the object (workload object or Customizer) asks for parameter expansion. */
export function wantsExpansion(obj: KubeObject): boolean {
  return obj.metadata.annotations?.[EXPAND_PARAMETERS_ANNOTATION] === 'true'
}

/** The Customizer an object names, if any. */
export function customizerRefOf(obj: KubeObject): CustomizerRefResult {
  const value = obj.metadata.annotations?.[CUSTOMIZER_ANNOTATION]
  if (value === undefined) return { kind: 'none' }
  const parts = value.split('/')
  const invalid = (message: string): CustomizerRefResult => ({ kind: 'invalid', value, message })
  if (parts.length > 2 || parts.some((p) => p === ''))
    return invalid(
      `${CUSTOMIZER_ANNOTATION} ${JSON.stringify(value)} is not "name" or "namespace/name"`
    )
  if (parts.length === 2)
    return { kind: 'ref', ref: { namespace: parts[0] ?? '', name: parts[1] ?? '' } }
  const own = obj.metadata.namespace
  if (!own)
    return invalid(
      `${CUSTOMIZER_ANNOTATION} ${JSON.stringify(value)} on a cluster-scoped object must be "namespace/name"`
    )
  return { kind: 'ref', ref: { namespace: own, name: value } }
}

/** Whether an object needs any customization work (either annotation present). */
export function asksForCustomization(obj: KubeObject): boolean {
  const a = obj.metadata.annotations
  return (
    !!a && (a[CUSTOMIZER_ANNOTATION] !== undefined || a[EXPAND_PARAMETERS_ANNOTATION] === 'true')
  )
}

export const formatRef = (r: CustomizerRef) => `${r.namespace}/${r.name}`
