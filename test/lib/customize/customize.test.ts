/**
 * Customizing one object: expansion of the object before the replacements, replacements in order,
 * expansion of a Customizer's paths and values only when asked, and all-or-nothing failure with
 * messages naming the replacement or the parameters; the Customizer reference annotation.
 */
import { describe, expect, it } from 'vitest'
import { customizerRefOf } from '../../../lib/customize/annotations.ts'
import { type CustomizeOptions, customizeObject } from '../../../lib/customize/customize.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'

const params = (name: string) => ({ env: 'prod', loc: 'florin', path: 'data' })[name]

const cm = (): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'ns' },
  data: { msg: 'Running in %(loc).', n: '1' },
})

const opts = (o: Partial<CustomizeOptions>): CustomizeOptions => ({
  expandObject: false,
  replacements: [],
  expandReplacements: false,
  parameters: params,
  ...o,
})

describe('customizeObject', () => {
  it('expands the object, then applies the replacements in order', () => {
    const input = cm()
    const res = customizeObject(
      input,
      opts({
        expandObject: true,
        replacements: [
          { path: '$.data.n', value: '"2"' },
          { path: '$.data.n', value: '"3"' },
          { path: '$.data.raw', value: '"%(env)"' },
        ],
      })
    )
    expect(res).toEqual({
      ok: true,
      object: { ...cm(), data: { msg: 'Running in florin.', n: '3', raw: '%(env)' } },
    })
    expect(input).toEqual(cm())
  })

  it('expands replacement paths and values only when the Customizer asks', () => {
    const res = customizeObject(
      cm(),
      opts({
        expandReplacements: true,
        replacements: [{ path: '$.%(path).env', value: '"%(env)"' }],
      })
    )
    expect(res.ok && res.object.data).toEqual({ msg: 'Running in %(loc).', n: '1', env: 'prod' })
  })

  it('sets JSON values of any type', () => {
    const res = customizeObject(
      cm(),
      opts({ replacements: [{ path: '$.spec', value: '{"replicas": 3, "paused": false}' }] })
    )
    expect(res.ok && res.object.spec).toEqual({ replicas: 3, paused: false })
  })

  it('fails on undefined parameters of the object and the Customizer, naming all', () => {
    const input = { ...cm(), data: { a: '%(zone)' } }
    const res = customizeObject(
      input,
      opts({
        expandObject: true,
        expandReplacements: true,
        replacements: [{ path: '$.data.b', value: '"%(rack)"' }],
      })
    )
    expect(res).toEqual({
      ok: false,
      failure: {
        reason: 'UndefinedParameter',
        names: ['rack', 'zone'],
        message:
          'parameters "rack", "zone" undefined (no such label or annotation on the destination\'s Location)',
      },
    })
  })

  it.each([
    [{ path: '$.data[', value: '"x"' }, 'replacement 2 (path "$.data["): invalid JSONPath'],
    [
      { path: '$.data.n', value: 'not json' },
      'replacement 2 (path "$.data.n"): value "not json" is not JSON text',
    ],
    [{ path: '$.data.n.x', value: '1' }, 'replacement 2 (path "$.data.n.x"): cannot set'],
    [
      { path: '$.metadata.name', value: '"other"' },
      'changes the apiVersion, kind, name or namespace',
    ],
    [{ path: '$.kind', value: '"Secret"' }, 'changes the apiVersion, kind, name or namespace'],
    [{ path: '$.metadata', value: '1' }, 'changes the apiVersion, kind, name or namespace'],
    [{ path: '$', value: '{}' }, 'the whole object cannot be replaced'],
    [{ path: '$.metadata.labels.n', value: '3' }, 'metadata.labels is not a map of strings'],
    [
      { path: '$.metadata.annotations', value: '[]' },
      'metadata.annotations is not a map of strings',
    ],
  ])('fails the whole customization on %j', (r, what) => {
    const res = customizeObject(
      cm(),
      opts({ replacements: [{ path: '$.data.ok', value: '1' }, r] })
    )
    expect(res.ok).toBe(false)
    if (res.ok) return
    expect(res.failure.reason).toBe('CustomizationFailed')
    expect(res.failure.message).toContain(what)
  })

  it('fails on bad parameter syntax', () => {
    const res = customizeObject({ ...cm(), data: { a: '%(env' } }, opts({ expandObject: true }))
    expect(res.ok).toBe(false)
    if (!res.ok) expect(res.failure.message).toContain('unterminated "%("')
  })
})

describe('customizerRefOf', () => {
  const obj = (value: string | undefined, namespace?: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'X',
    metadata: {
      name: 'x',
      ...(namespace ? { namespace } : {}),
      ...(value === undefined ? {} : { annotations: { 'edge.kcp.io/customizer': value } }),
    },
  })

  it.each([
    [obj(undefined, 'ns'), { kind: 'none' }],
    [obj('cz', 'ns'), { kind: 'ref', ref: { namespace: 'ns', name: 'cz' } }],
    [obj('other/cz', 'ns'), { kind: 'ref', ref: { namespace: 'other', name: 'cz' } }],
    [obj('other/cz'), { kind: 'ref', ref: { namespace: 'other', name: 'cz' } }],
  ])('reads %j', (o, want) => {
    expect(customizerRefOf(o)).toEqual(want)
  })

  it.each([
    [obj('cz'), 'on a cluster-scoped object must be "namespace/name"'],
    [obj('', 'ns'), 'is not "name" or "namespace/name"'],
    [obj('a/b/c', 'ns'), 'is not "name" or "namespace/name"'],
    [obj('/cz', 'ns'), 'is not "name" or "namespace/name"'],
  ])('refuses %j', (o, what) => {
    const r = customizerRefOf(o)
    expect(r.kind).toBe('invalid')
    if (r.kind === 'invalid') expect(r.message).toContain(what)
  })
})
