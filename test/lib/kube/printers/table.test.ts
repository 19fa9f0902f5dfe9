import { describe, expect, it } from 'vitest'
import { NAMESPACE_PRINTER } from '../../../../lib/kube/printers/core.ts'
import { POD_PRINTER } from '../../../../lib/kube/printers/pod.ts'
import { buildTable } from '../../../../lib/kube/printers/table.ts'
import type { KubeObject } from '../../../../lib/kube/types.ts'

const NOW = new Date('2025-01-01T00:00:30Z')
const ns: KubeObject = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'demo', labels: { team: 'a' }, creationTimestamp: '2025-01-01T00:00:00Z' },
  status: { phase: 'Active' },
}

describe('buildTable', () => {
  it('builds a v1 Table with partial object metadata by default', () => {
    const t = buildTable(
      NAMESPACE_PRINTER,
      [ns],
      { resourceVersion: '12' },
      { version: 'v1', includeObject: 'Metadata', now: NOW }
    )
    expect(t).toEqual({
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '12' },
      columnDefinitions: NAMESPACE_PRINTER.columns,
      rows: [
        {
          cells: ['demo', 'Active', '30s'],
          object: {
            kind: 'PartialObjectMetadata',
            apiVersion: 'meta.k8s.io/v1',
            metadata: ns.metadata,
          },
        },
      ],
    })
  })

  it('embeds the whole object, or nothing, on request', () => {
    const full = buildTable(
      NAMESPACE_PRINTER,
      [ns],
      {},
      { version: 'v1beta1', includeObject: 'Object', now: NOW }
    )
    expect(full.apiVersion).toBe('meta.k8s.io/v1beta1')
    expect(full.rows[0]?.object).toBe(ns)
    const none = buildTable(
      NAMESPACE_PRINTER,
      [ns],
      {},
      { version: 'v1', includeObject: 'None', now: NOW }
    )
    expect(none.rows[0]).toEqual({ cells: ['demo', 'Active', '30s'] })
    const partial = buildTable(
      NAMESPACE_PRINTER,
      [ns],
      {},
      { version: 'v1beta1', includeObject: 'Metadata', now: NOW }
    )
    expect(partial.rows[0]?.object).toMatchObject({ apiVersion: 'meta.k8s.io/v1beta1' })
  })

  it('leaves out headers when asked and carries row conditions', () => {
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      status: { phase: 'Succeeded' },
    }
    const t = buildTable(
      POD_PRINTER,
      [pod],
      {},
      { version: 'v1', includeObject: 'None', now: NOW, noHeaders: true }
    )
    expect(t.columnDefinitions).toEqual([])
    expect(t.rows[0]?.conditions?.[0]).toMatchObject({ type: 'Completed', reason: 'Succeeded' })
    expect(
      buildTable(POD_PRINTER, [], {}, { version: 'v1', includeObject: 'None', now: NOW }).rows
    ).toEqual([])
  })
})
