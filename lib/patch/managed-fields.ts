/**
 * `metadata.managedFields` as server-side apply works with it: a list of managers, each with the
 * set of fields it owns. A manager is identified like kube does: by name, operation and
 * subresource, plus the apiVersion for `Update` managers. Encoding drops managers that own
 * nothing and sorts entries the way kube does (Apply before Update, then by time, name,
 * apiVersion and subresource). `describeManager` renders one the way kube's conflict messages do.
 */
import type { KubeObject, ManagedFieldsEntry } from '../kube/types.ts'
import { type FieldSet, fieldSetFromFieldsV1, fieldSetToFieldsV1, union } from './field-set.ts'

export type Manager = {
  manager: string
  operation: 'Apply' | 'Update'
  apiVersion: string
  time?: string
  subresource?: string
  fields: FieldSet
}

type Identified = Pick<Manager, 'manager' | 'operation' | 'apiVersion' | 'subresource'>

/** The identity of a manager: two entries with the same identity are the same manager. */
export function managerIdentity(m: Identified): string {
  const apiVersion = m.operation === 'Apply' ? '' : m.apiVersion
  return JSON.stringify([m.manager, m.operation, apiVersion, m.subresource ?? ''])
}

/** Decodes managedFields entries; entries with the same identity are merged. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): Manager[] {
  const byId = new Map<string, Manager>()
  for (const e of entries ?? []) {
    const m: Manager = {
      manager: e.manager ?? '',
      operation: e.operation === 'Apply' ? 'Apply' : 'Update',
      apiVersion: e.apiVersion ?? '',
      fields: fieldSetFromFieldsV1(e.fieldsV1),
      ...(e.time ? { time: e.time } : {}),
      ...(e.subresource ? { subresource: e.subresource } : {}),
    }
    const id = managerIdentity(m)
    const seen = byId.get(id)
    byId.set(id, seen ? { ...seen, fields: union(seen.fields, m.fields) } : m)
  }
  return [...byId.values()]
}

function compareManagers(a: Manager, b: Manager): number {
  const keys = (m: Manager) => [
    m.operation,
    m.time ?? '',
    m.manager,
    m.apiVersion,
    m.subresource ?? '',
  ]
  const ka = keys(a)
  const kb = keys(b)
  for (let i = 0; i < ka.length; i++) {
    const x = ka[i] ?? ''
    const y = kb[i] ?? ''
    if (x !== y) return x < y ? -1 : 1
  }
  return 0
}

/** Encodes managers as managedFields entries, dropping those that own no field. */
export function encodeManagedFields(managers: readonly Manager[]): ManagedFieldsEntry[] {
  return managers
    .filter((m) => m.fields.size > 0)
    .toSorted(compareManagers)
    .map((m) => ({
      manager: m.manager,
      operation: m.operation,
      apiVersion: m.apiVersion,
      ...(m.time ? { time: m.time } : {}),
      fieldsType: 'FieldsV1' as const,
      fieldsV1: fieldSetToFieldsV1(m.fields),
      ...(m.subresource ? { subresource: m.subresource } : {}),
    }))
}

/** `"kubectl" with subresource "status" using v1`, as kube's conflict messages print a manager. */
export function describeManager(m: Identified): string {
  let text = JSON.stringify(m.manager)
  if (m.subresource) text += ` with subresource ${JSON.stringify(m.subresource)}`
  if (m.operation === 'Update') text += ` using ${m.apiVersion}`
  return text
}

/** `obj` with `metadata.managedFields` set to the encoded managers (left out when none own anything). */
export function withManagedFields(obj: KubeObject, managers: readonly Manager[]): KubeObject {
  const metadata = { ...obj.metadata }
  const entries = encodeManagedFields(managers)
  if (entries.length > 0) metadata.managedFields = entries
  else delete metadata.managedFields
  return { ...obj, metadata }
}
