/**
 * The refusals of subresources nothing behind a hub can answer, per site: a center space says it
 * holds desired state only and points at the edge's own API; a simulated edge cluster says its pods
 * are simulated and it runs no containers, and never points at itself; both refuse tokens with a
 * site-specific way out. All are 400 BadRequest rendering as kube Status.
 */
import { describe, expect, it } from 'vitest'
import {
  needsRuntime,
  podsElsewhere,
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

  it('name the edges a center Pod runs at, with the command to ask the first', () => {
    const at = { kind: 'Pod', namespace: 'shop', name: 'runner', edges: ['florin', 'guilder'] }
    const logs = runtimeUnavailable('center', 'pods', 'log', at)
    expect(logs.code).toBe(400)
    expect(logs.message).toBe(
      'pods/log is not available in an edgeplane workspace: it holds desired state only and runs no containers. Pod runner runs at the edges florin, guilder: kubectl --context florin -n shop logs pod/runner'
    )
    const one = { ...at, edges: ['florin'] }
    expect(runtimeUnavailable('center', 'pods', 'exec', one).message).toContain(
      'Pod runner runs at the edge florin: kubectl --context florin -n shop exec pod/runner -- <command>'
    )
    expect(runtimeUnavailable('center', 'pods', 'portforward', one).message).toContain(
      'kubectl --context florin -n shop port-forward pod/runner <port>'
    )
    expect(runtimeUnavailable('center', 'pods', 'proxy', one).message).toContain(
      'ask there (kubectl --context florin -n shop ...)'
    )
    expect(runtimeUnavailable('center', 'pods', 'log', { ...at, edges: [] }).message).toContain(
      'Pod runner runs nowhere: no EdgePlacement of this workspace selects it.'
    )
  })

  it("refuse kubectl's lookup of a workload's pods, naming where its logs are", () => {
    const e = podsElsewhere({
      kind: 'Deployment',
      namespace: 'shop',
      name: 'shop',
      edges: ['florin'],
    })
    expect(e.code).toBe(400)
    expect(e.message).toBe(
      'the pods of deployment shop are not in an edgeplane workspace: it holds desired state only and runs no containers. Deployment shop runs at the edge florin: kubectl --context florin -n shop logs deployment/shop'
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
