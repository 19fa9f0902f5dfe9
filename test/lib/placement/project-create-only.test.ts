/**
 * The create-only annotation (issue 5) on its way from a workload object to its mailbox copy:
 * `edge.kcp.io/downsync-overwrite` is not a kcp system key, so the translator's projection
 * carries it to the copy on create and update, and a new value replaces the old. Removing it
 * from the workload does not remove it from an existing copy (the annotation merge keeps the
 * copy's keys the source lacks), which is why switching back to normal mode is done with the
 * value "true".
 */
import { describe, expect, it } from 'vitest'
import { DOWNSYNC_OVERWRITE_ANNOTATION } from '../../../lib/edge-agent/create-only.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { projectBody } from '../../../lib/placement/project.ts'

const secret = (annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 's', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  data: { k: 'dg==' },
})

const overwriteOf = (o: KubeObject) => o.metadata.annotations?.[DOWNSYNC_OVERWRITE_ANNOTATION]

describe('the downsync-overwrite annotation in projection', () => {
  it('travels to a new copy and follows value changes', () => {
    const created = projectBody(secret({ [DOWNSYNC_OVERWRITE_ANNOTATION]: 'false' }))
    expect(overwriteOf(created)).toBe('false')
    const updated = projectBody(secret({ [DOWNSYNC_OVERWRITE_ANNOTATION]: 'true' }), created)
    expect(overwriteOf(updated)).toBe('true')
  })

  it('stays on an existing copy when the workload drops it', () => {
    const created = projectBody(secret({ [DOWNSYNC_OVERWRITE_ANNOTATION]: 'false' }))
    expect(overwriteOf(projectBody(secret(), created))).toBe('false')
  })
})
