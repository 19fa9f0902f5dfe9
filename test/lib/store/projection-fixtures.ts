/**
 * Shared fixtures for the projection store tests: desired entries for ConfigMaps and Secrets, and
 * a summary of change events (`TYPE ns/name@rv`) that makes expectations easy to read.
 */
import type { DesiredEntry } from '../../../lib/store/projection-types.ts'
import type { ChangeEvent } from '../../../lib/store/types.ts'

export function cmEntry(
  name: string,
  namespace = 'ns1',
  data: Record<string, string> = {}
): DesiredEntry {
  const body = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, labels: { app: name } },
    data,
  }
  return { group: '', version: 'v1', resource: 'configmaps', namespace, name, body }
}

export function secretEntry(name: string, namespace = 'ns1'): DesiredEntry {
  const body = { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, data: {} }
  return { group: '', version: 'v1', resource: 'secrets', namespace, name, body }
}

export const summary = (events: ChangeEvent[]) =>
  events.map((e) => `${e.type} ${e.namespace}/${e.object.metadata.name}@${e.rv}`)

export const NOW = new Date('2030-01-02T03:04:05.678Z')
