import { describe, expect, it } from 'vitest'
import { DEFAULT_EDGES, edgeLabels, parseEdges } from '../../../infra/local/edges-config.ts'

describe('parseEdges (EDGEPLANE_EDGES)', () => {
  it('defaults to florin (env=prod) and guilder (env=prod, extended=si)', () => {
    expect(parseEdges(undefined)).toEqual(parseEdges(DEFAULT_EDGES))
    expect(parseEdges(undefined)).toEqual([
      { name: 'florin', labels: { env: 'prod' } },
      { name: 'guilder', labels: { env: 'prod', extended: 'si' } },
    ])
  })

  it('reads an empty or blank value as no edges', () => {
    expect(parseEdges('')).toEqual([])
    expect(parseEdges('  ')).toEqual([])
  })

  it('reads names without labels, prefixed keys, empty values and spaces around entries', () => {
    expect(parseEdges(' a , b:example.com/tier=edge:empty= ')).toEqual([
      { name: 'a', labels: {} },
      { name: 'b', labels: { 'example.com/tier': 'edge', empty: '' } },
    ])
  })

  it.each([
    ['Florin', 'RFC 1123'],
    ['a,,b', 'empty entry'],
    ['a,', 'empty entry'],
    ['a,a', 'named twice'],
    ['a:env', '"env" is not key=value'],
    ['a:id=x', 'set by edgeplane'],
    ['a:loc-name=x', 'set by edgeplane'],
    ['a:env=x:env=y', 'given twice'],
    ['a:bad key=x', 'label bad key'],
    ['a:env=not ok', 'label env: value'],
  ])('rejects %s (%s)', (value, message) => {
    expect(() => parseEdges(value)).toThrow(message)
  })

  it('names every problem at once', () => {
    expect(() => parseEdges('A,b:id=1')).toThrow(/edge name "A".*edge b: label id/)
  })

  it('labels both inventory objects loc-name=<name> on top of the given labels', () => {
    expect(edgeLabels({ name: 'florin', labels: { env: 'prod' } })).toEqual({
      env: 'prod',
      'loc-name': 'florin',
    })
  })
})
