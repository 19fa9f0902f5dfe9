/**
 * Validation of `metadata` as kube's ValidateObjectMeta does it: a name (or generateName) is
 * required and must follow the kind's name rule (DNS-1123 subdomain for most kinds, DNS-1123
 * label for Namespaces and Workspaces, DNS-1035 label for Services, path-segment names for RBAC
 * kinds); a namespace is required on namespaced kinds and forbidden on cluster-scoped ones; label
 * keys and values, annotation keys, the 256 KiB annotation size limit, finalizer names and owner
 * references are checked.
 */
import type { StatusCause } from '../errors.ts'
import {
  dns1035LabelErrors,
  dnsLabelErrors,
  dnsSubdomainErrors,
  labelValueErrors,
  maskTrailingDash,
  pathSegmentErrors,
  qualifiedNameErrors,
} from './names.ts'
import type { ResourceInfo } from './resource-info.ts'
import {
  asArray,
  asRecord,
  causesFromMessages,
  forbiddenCause,
  indexPath,
  invalidCause,
  requiredCause,
  tooLongCause,
} from './validate-util.ts'

export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024

type NameRule = (name: string) => string[]

const NAME_RULES: Record<string, NameRule> = {
  '/namespaces': dnsLabelErrors,
  '/services': dns1035LabelErrors,
  'tenancy.kcp.io/workspaces': dnsLabelErrors,
  'rbac.authorization.k8s.io/roles': pathSegmentErrors,
  'rbac.authorization.k8s.io/rolebindings': pathSegmentErrors,
  'rbac.authorization.k8s.io/clusterroles': pathSegmentErrors,
  'rbac.authorization.k8s.io/clusterrolebindings': pathSegmentErrors,
}

/** The name rule of a resource: kube's per-kind choice, DNS-1123 subdomain by default. */
export function nameRuleFor(info: Pick<ResourceInfo, 'group' | 'resource'>): NameRule {
  return NAME_RULES[`${info.group}/${info.resource}`] ?? dnsSubdomainErrors
}

function validateName(info: ResourceInfo, meta: Record<string, unknown>, out: StatusCause[]): void {
  const rule = nameRuleFor(info)
  const { name, generateName } = meta
  if (typeof generateName === 'string' && generateName !== '') {
    out.push(
      ...causesFromMessages(
        'metadata.generateName',
        generateName,
        rule(maskTrailingDash(generateName))
      )
    )
  }
  if (typeof name === 'string' && name !== '') {
    out.push(...causesFromMessages('metadata.name', name, rule(name)))
  } else if (!(typeof generateName === 'string' && generateName !== '')) {
    out.push(requiredCause('metadata.name', 'name or generateName is required'))
  }
}

function validateNamespace(
  info: ResourceInfo,
  meta: Record<string, unknown>,
  out: StatusCause[]
): void {
  const ns = meta.namespace
  if (info.namespaced) {
    if (typeof ns !== 'string' || ns === '') out.push(requiredCause('metadata.namespace'))
    else out.push(...causesFromMessages('metadata.namespace', ns, dnsLabelErrors(ns)))
  } else if (typeof ns === 'string' && ns !== '') {
    out.push(forbiddenCause('metadata.namespace', 'not allowed on this type'))
  }
}

function validateLabels(labels: unknown, out: StatusCause[]): void {
  const map = asRecord(labels)
  if (!map) return
  for (const [k, v] of Object.entries(map)) {
    out.push(...causesFromMessages('metadata.labels', k, qualifiedNameErrors(k)))
    if (typeof v === 'string')
      out.push(...causesFromMessages('metadata.labels', v, labelValueErrors(v)))
  }
}

function validateAnnotations(annotations: unknown, out: StatusCause[]): void {
  const map = asRecord(annotations)
  if (!map) return
  const encoder = new TextEncoder()
  let size = 0
  for (const [k, v] of Object.entries(map)) {
    out.push(...causesFromMessages('metadata.annotations', k, qualifiedNameErrors(k.toLowerCase())))
    size += encoder.encode(k).length + (typeof v === 'string' ? encoder.encode(v).length : 0)
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
    out.push(tooLongCause('metadata.annotations', TOTAL_ANNOTATION_SIZE_LIMIT))
  }
}

function validateFinalizers(finalizers: unknown, out: StatusCause[]): void {
  ;(asArray(finalizers) ?? []).forEach((f, i) => {
    if (typeof f === 'string') {
      out.push(
        ...causesFromMessages(indexPath('metadata.finalizers', i), f, qualifiedNameErrors(f))
      )
    }
  })
}

function validateOwnerReferences(refs: unknown, out: StatusCause[]): void {
  let controllers = 0
  ;(asArray(refs) ?? []).forEach((r, i) => {
    const ref = asRecord(r) ?? {}
    const field = indexPath('metadata.ownerReferences', i)
    for (const k of ['apiVersion', 'kind', 'name', 'uid']) {
      const v = ref[k]
      if (typeof v !== 'string' || v === '') {
        out.push(invalidCause(`${field}.${k}`, v ?? '', `${k} must not be empty`))
      }
    }
    if (ref.controller === true) controllers++
  })
  if (controllers > 1) {
    out.push(
      invalidCause(
        'metadata.ownerReferences',
        controllers,
        'Only one reference can have Controller set to true'
      )
    )
  }
}

/** Every problem with `metadata` for an object of this resource. */
export function validateObjectMeta(info: ResourceInfo, metadata: unknown): StatusCause[] {
  const meta = asRecord(metadata)
  if (!meta) return [requiredCause('metadata')]
  const out: StatusCause[] = []
  validateName(info, meta, out)
  validateNamespace(info, meta, out)
  validateLabels(meta.labels, out)
  validateAnnotations(meta.annotations, out)
  validateFinalizers(meta.finalizers, out)
  validateOwnerReferences(meta.ownerReferences, out)
  return out
}
