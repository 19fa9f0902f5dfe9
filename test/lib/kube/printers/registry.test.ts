import { describe, expect, it } from 'vitest'
import { BUILTIN_RESOURCES } from '../../../../lib/kube/builtin-resources.ts'
import { CREATED_AT_PRINTER } from '../../../../lib/kube/printers/custom-columns.ts'
import { POD_PRINTER } from '../../../../lib/kube/printers/pod.ts'
import { NAME_AGE_PRINTER, printerFor } from '../../../../lib/kube/printers/registry.ts'
import type { KubeObject } from '../../../../lib/kube/types.ts'

const NOW = new Date('2025-01-01T00:00:10Z')
const names = (info: Parameters<typeof printerFor>[0], version = 'v1') =>
  printerFor(info, version).columns.map((c) => c.name)

describe('printerFor', () => {
  it('finds built-in printers by group and kind', () => {
    expect(printerFor({ group: '', kind: 'Pod', source: 'builtin' }, 'v1')).toBe(POD_PRINTER)
    expect(names({ group: 'apps', kind: 'Deployment', source: 'builtin' })).toContain('Up-to-date')
    expect(names({ group: 'tenancy.kcp.io', kind: 'Workspace', source: 'builtin' })).toContain(
      'Phase'
    )
    expect(
      printerFor(
        { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', source: 'builtin' },
        'v1'
      )
    ).toBe(CREATED_AT_PRINTER)
    expect(
      printerFor({ group: 'storage.k8s.io', kind: 'CSIDriver', source: 'builtin' }, 'v1')
    ).toBe(NAME_AGE_PRINTER)
  })

  it('uses the printer columns of the CRD version being served', () => {
    const info = {
      group: 'ex.io',
      kind: 'Widget',
      source: 'crd' as const,
      printerColumns: { v2: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }] },
    }
    expect(names(info, 'v2')).toEqual(['Name', 'Size'])
    expect(names(info, 'v1')).toEqual(['Name', 'Age'])
    expect(names({ ...info, printerColumns: undefined }, 'v2')).toEqual(['Name', 'Age'])
  })

  it('prints one cell per column for every served kind, even for an empty object', () => {
    const empty: KubeObject = { apiVersion: 'v1', kind: 'X', metadata: { name: 'x' } }
    for (const info of BUILTIN_RESOURCES) {
      const printer = printerFor(info, info.versions[0] ?? 'v1')
      const { cells } = printer.row(empty, { now: NOW })
      expect(cells.length, info.kind).toBe(printer.columns.length)
      expect(
        cells.every((c) => c === null || ['string', 'number', 'boolean'].includes(typeof c))
      ).toBe(true)
      expect(printer.columns.filter((c) => c.format === 'name')).toHaveLength(1)
    }
  })
})
