/**
 * The refusals of subresources nothing behind a hub can answer, per site: a center space says it
 * holds desired state only and points at the edge's own API; a simulated edge cluster says its pods
 * are simulated and it runs no containers, and never points at itself; both refuse tokens with a
 * site-specific way out. All are 400 BadRequest rendering as kube Status.
 */
import { describe, expect, it } from 'vitest'
import {
  needsRuntime,
  runtimeUnavailable,
  tokenUnavailable,
} from '../../../lib/hub/unavailable-subresources.ts'

describe('subresources that need a container runtime', () => {
  it('are log, exec, attach, portforward and proxy (and the node-side ones), not status or scale', () => {
    for (const sub of ['log', 'exec', 'attach', 'portforward', 'proxy', 'eviction', 'binding'])
      expect(needsRuntime(sub)).toBe(true)
    for (const sub of ['status', 'scale', 'token', 'bogus']) expect(needsRuntime(sub)).toBe(false)
  })

  it('are refused in a center space: desired state only, use the edge context', () => {
    const e = runtimeUnavailable('center', 'pods', 'log')
    expect(e.toStatus()).toMatchObject({ code: 400, reason: 'BadRequest', kind: 'Status' })
    expect(e.message).toBe(
      "pods/log is not available in an edgeplane workspace: it holds desired state only and runs no containers. Use the edge cluster's own API (kubectl --context <edge>) for log."
    )
  })

  it('are refused on a simulated edge: simulated pods, no containers, no pointer to itself', () => {
    const e = runtimeUnavailable('simulated-edge', 'pods', 'exec')
    expect(e.code).toBe(400)
    expect(e.message).toMatch(/^pods\/exec is not available on a simulated edge cluster: /)
    expect(e.message).toContain('its pods are simulated')
    expect(e.message).toContain('runs no containers')
    expect(e.message).not.toContain('workspace')
    expect(e.message).not.toContain('--context')
  })
})

describe('serviceaccounts/token', () => {
  it('is refused on both sites with a way out that fits each', () => {
    const center = tokenUnavailable('center')
    expect(center.code).toBe(400)
    expect(center.message).toContain(
      'in an edgeplane workspace: it issues no service-account tokens'
    )
    expect(center.message).toContain('edgeplane token scoped to this workspace')
    const edge = tokenUnavailable('simulated-edge')
    expect(edge.code).toBe(400)
    expect(edge.message).toContain(
      'on a simulated edge cluster only answers a create, with RBAC on (kubectl create token'
    )
    expect(edge.message).toContain('admin token from its kubeconfig')
    expect(edge.message).not.toContain('workspace')
  })
})
