/**
 * Validation of a CustomResourceDefinition (apiextensions.k8s.io/v1) before the hub stores and
 * serves it: the name must be `<plural>.<group>`, the group a domain with a dot, names DNS-1035
 * labels, scope Namespaced or Cluster, at least one version, unique version names, exactly one
 * storage version, at least one served version, a structural-looking schema (root type object)
 * per version, well-formed printer columns and scale paths. Returns kube-style StatusCauses.
 */
import type { StatusCause } from '../errors.ts'
import { dns1035LabelErrors, dnsSubdomainErrors } from './names.ts'
import type { KubeObject } from './types.ts'
import {
  asArray,
  asRecord,
  asString,
  causesFromMessages,
  duplicateCause,
  invalidCause,
  isRecord,
  notSupportedCause,
  requiredCause,
} from './validate-util.ts'

const COLUMN_TYPES = ['integer', 'number', 'string', 'boolean', 'date']

function validateNames(names: unknown, out: StatusCause[]): void {
  const n = asRecord(names)
  if (!n) {
    out.push(requiredCause('spec.names'))
    return
  }
  const label = (field: string, value: unknown, needed: boolean) => {
    if (value === undefined || value === '') {
      if (needed) out.push(requiredCause(`spec.names.${field}`))
      return
    }
    if (typeof value !== 'string')
      out.push(invalidCause(`spec.names.${field}`, value, 'must be a string'))
    else out.push(...causesFromMessages(`spec.names.${field}`, value, dns1035LabelErrors(value)))
  }
  label('plural', n.plural, true)
  label('singular', n.singular, false)
  label('kind', typeof n.kind === 'string' ? n.kind.toLowerCase() : n.kind, true)
  label('listKind', typeof n.listKind === 'string' ? n.listKind.toLowerCase() : n.listKind, false)
  if (n.kind !== undefined && n.kind === n.listKind) {
    out.push(invalidCause('spec.names.listKind', n.listKind, 'kind and listKind cannot be equal'))
  }
  for (const list of ['shortNames', 'categories'] as const) {
    const items = n[list]
    if (items === undefined) continue
    const arr = asArray(items)
    if (!arr) {
      out.push(invalidCause(`spec.names.${list}`, items, 'must be a list of strings'))
      continue
    }
    arr.forEach((v, i) => {
      label(`${list}[${i}]`, v, true)
    })
  }
}

function validateColumns(columns: unknown, field: string, out: StatusCause[]): void {
  if (columns === undefined) return
  const arr = asArray(columns)
  if (!arr) {
    out.push(invalidCause(field, columns, 'must be a list'))
    return
  }
  arr.forEach((c, i) => {
    const col = asRecord(c) ?? {}
    const f = `${field}[${i}]`
    if (!asString(col.name)) out.push(requiredCause(`${f}.name`))
    if (!asString(col.jsonPath)) out.push(requiredCause(`${f}.jsonPath`))
    if (col.type === undefined) out.push(requiredCause(`${f}.type`))
    else if (!COLUMN_TYPES.includes(String(col.type))) {
      out.push(notSupportedCause(`${f}.type`, col.type, COLUMN_TYPES))
    }
  })
}

function validateSubresources(sub: unknown, field: string, out: StatusCause[]): void {
  const scale = asRecord(asRecord(sub)?.scale)
  if (!scale) return
  const spec = asString(scale.specReplicasPath)
  const status = asString(scale.statusReplicasPath)
  if (!spec) out.push(requiredCause(`${field}.scale.specReplicasPath`))
  else if (!spec.startsWith('.spec.')) {
    out.push(
      invalidCause(`${field}.scale.specReplicasPath`, spec, 'should be a json path under .spec')
    )
  }
  if (!status) out.push(requiredCause(`${field}.scale.statusReplicasPath`))
  else if (!status.startsWith('.status.')) {
    out.push(
      invalidCause(
        `${field}.scale.statusReplicasPath`,
        status,
        'should be a json path under .status'
      )
    )
  }
}

function validateVersion(v: unknown, i: number, out: StatusCause[]): void {
  const field = `spec.versions[${i}]`
  const version = asRecord(v)
  if (!version) {
    out.push(invalidCause(field, v, 'must be an object'))
    return
  }
  const name = version.name
  if (typeof name !== 'string' || name === '') out.push(requiredCause(`${field}.name`))
  else out.push(...causesFromMessages(`${field}.name`, name, dns1035LabelErrors(name)))
  const schema = asRecord(asRecord(version.schema)?.openAPIV3Schema)
  if (!schema) out.push(requiredCause(`${field}.schema.openAPIV3Schema`, 'schemas are required'))
  else if (schema.type !== 'object') {
    out.push(
      invalidCause(
        `${field}.schema.openAPIV3Schema.type`,
        schema.type ?? '',
        'must be object at the root'
      )
    )
  }
  validateColumns(version.additionalPrinterColumns, `${field}.additionalPrinterColumns`, out)
  validateSubresources(version.subresources, `${field}.subresources`, out)
}

function validateVersions(versions: unknown, out: StatusCause[]): void {
  const arr = asArray(versions)
  if (!arr || arr.length === 0) {
    out.push(
      requiredCause('spec.versions', 'must have exactly one version marked as storage version')
    )
    return
  }
  const seen = new Set<string>()
  arr.forEach((v, i) => {
    validateVersion(v, i, out)
    const name = asRecord(v)?.name
    if (typeof name === 'string') {
      if (seen.has(name)) out.push(duplicateCause(`spec.versions[${i}].name`, name))
      seen.add(name)
    }
  })
  const records = arr.filter(isRecord)
  const storage = records.filter((v) => v.storage === true).length
  if (storage !== 1) {
    out.push(
      invalidCause(
        'spec.versions',
        storage,
        'must have exactly one version marked as storage version'
      )
    )
  }
  if (!records.some((v) => v.served === true)) {
    out.push(invalidCause('spec.versions', 0, 'must have at least one version marked as served'))
  }
}

/** Every problem with a CRD object, as kube would report it on create or update. */
export function validateCrd(crd: KubeObject): StatusCause[] {
  const out: StatusCause[] = []
  const spec = asRecord(crd.spec)
  if (!spec) return [requiredCause('spec')]
  const group = spec.group
  if (typeof group !== 'string' || group === '') out.push(requiredCause('spec.group'))
  else {
    out.push(...causesFromMessages('spec.group', group, dnsSubdomainErrors(group)))
    if (!group.includes('.'))
      out.push(invalidCause('spec.group', group, 'should be a domain with at least one dot'))
  }
  validateNames(spec.names, out)
  if (spec.scope === undefined) out.push(requiredCause('spec.scope'))
  else if (spec.scope !== 'Namespaced' && spec.scope !== 'Cluster') {
    out.push(notSupportedCause('spec.scope', spec.scope, ['Cluster', 'Namespaced']))
  }
  validateVersions(spec.versions, out)
  const plural = asString(asRecord(spec.names)?.plural)
  const name = crd.metadata?.name
  if (plural && typeof group === 'string' && name !== `${plural}.${group}`) {
    out.push(invalidCause('metadata.name', name ?? '', 'must be spec.names.plural+"."+spec.group'))
  }
  return out
}
