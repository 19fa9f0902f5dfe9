/** EDGEPLANE_EDGE_FAULTS (infra/local/edge-faults-config.ts): which simulated edge fails how. */
import { describe, expect, it } from 'vitest'
import { withEdgeFaults } from '../../../infra/local/edge-faults-config.ts'
import { parseEdges } from '../../../infra/local/edges-config.ts'
import { readLocalConfig } from '../../../infra/local/local-config.ts'

const edges = parseEdges(undefined)

describe('withEdgeFaults', () => {
  it('leaves the edges healthy when unset or empty', () => {
    expect(withEdgeFaults(edges, undefined)).toEqual(edges)
    expect(withEdgeFaults(edges, ' ')).toEqual(edges)
  })

  it('gives each named edge its faults in the edge simulator’s --faults form', () => {
    const out = withEdgeFaults(
      edges,
      'florin=crash-loop@*:bad ; guilder=image-pull@shop:v3,job-fail'
    )
    expect(out.map((e) => [e.name, e.faults])).toEqual([
      ['florin', 'crash-loop@*:bad'],
      ['guilder', 'image-pull@shop:v3,job-fail'],
    ])
  })

  it('names every problem at once', () => {
    const run = () =>
      withEdgeFaults(edges, 'tulip=job-fail;florin;guilder=oom;florin=job-fail;florin=')
    expect(run).toThrow(/^EDGEPLANE_EDGE_FAULTS: /)
    const message = (() => {
      try {
        run()
      } catch (e) {
        return (e as Error).message
      }
      return ''
    })()
    expect(message).toContain('edge tulip is not one of EDGEPLANE_EDGES')
    expect(message).toContain('"florin" is not <edge>=<faults>')
    expect(message).toContain('edge guilder: "oom"')
  })

  it('is read by the local configuration', () => {
    const c = readLocalConfig({ EDGEPLANE_EDGE_FAULTS: 'florin=job-fail' }, '/tmp')
    expect(c.edges.find((e) => e.name === 'florin')?.faults).toBe('job-fail')
    expect(c.edges.find((e) => e.name === 'guilder')?.faults).toBeUndefined()
  })
})
