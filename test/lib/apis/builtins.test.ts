import { describe, expect, it } from 'vitest'
import {
  builtinsFrom,
  DEFAULT_BUILTIN_NAMESPACES,
  isBuiltinDefinition,
  parseBuiltinNamespaces,
} from '../../../lib/apis/builtins.ts'
import { readConfig } from '../../../lib/env.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'

describe('parseBuiltinNamespaces', () => {
  const cases: [input: string | undefined, want: string[]][] = [
    [undefined, ['default', 'kube-system', 'kube-public', 'kube-node-lease']],
    ['default,kube-system', ['default', 'kube-system']],
    [' default , edge-agent ,,', ['default', 'edge-agent']],
    ['a,b,a', ['a', 'b']],
    ['', []],
    [' , ', []],
  ]
  it.each(cases)('%j → %j', (input, want) => {
    expect(parseBuiltinNamespaces(input)).toEqual(want)
  })

  const invalid: [input: string, mentions: string][] = [
    ['default,Kube-System', '"Kube-System"'],
    ['ok,under_score', '"under_score"'],
    ['-leading', '"-leading"'],
    [`${'a'.repeat(64)}`, 'no more than 63 characters'],
  ]
  it.each(invalid)('%j throws naming the item', (input, mentions) => {
    expect(() => parseBuiltinNamespaces(input)).toThrow(/^EDGE_BUILTIN_NAMESPACES: /)
    expect(() => parseBuiltinNamespaces(input)).toThrow(mentions)
  })

  it('returns a copy of the default, not the shared constant', () => {
    const list = parseBuiltinNamespaces()
    list.push('x')
    expect(DEFAULT_BUILTIN_NAMESPACES).not.toContain('x')
  })

  it('is read from the environment as an optional string', () => {
    expect(readConfig({}).EDGE_BUILTIN_NAMESPACES).toBeUndefined()
    expect(readConfig({ EDGE_BUILTIN_NAMESPACES: 'a,b' }).EDGE_BUILTIN_NAMESPACES).toBe('a,b')
  })
})

describe('builtinsFrom', () => {
  it('defaults to the four kube namespaces', () => {
    expect([...builtinsFrom().namespaces].sort()).toEqual([
      'default',
      'kube-node-lease',
      'kube-public',
      'kube-system',
    ])
    expect([...builtinsFrom(['edge']).namespaces]).toEqual(['edge'])
  })

  const groups: [group: string, builtin: boolean][] = [
    ['', true],
    ['apps', true],
    ['batch', true],
    ['rbac.authorization.k8s.io', true],
    ['apiextensions.k8s.io', true],
    ['networking.k8s.io', true],
    ['tenancy.kcp.io', false],
    ['apis.kcp.io', false],
    ['edge.kcp.io', false],
    ['example.com', false],
  ]
  it.each(groups)('group %j built in: %s', (group, builtin) => {
    expect(builtinsFrom().groups.has(group)).toBe(builtin)
  })
})

describe('isBuiltinDefinition', () => {
  const b = builtinsFrom()
  const ns = (name: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  })
  const crd = (group: unknown): KubeObject => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'x' },
    spec: { group } as KubeObject['spec'],
  })
  const CRDS = ['apiextensions.k8s.io', 'customresourcedefinitions'] as const
  const cases: [label: string, group: string, resource: string, o: KubeObject, want: boolean][] = [
    ['kube-system Namespace', '', 'namespaces', ns('kube-system'), true],
    ['default Namespace', '', 'namespaces', ns('default'), true],
    ['workload Namespace', '', 'namespaces', ns('shop'), false],
    ['CRD of group apps', ...CRDS, crd('apps'), true],
    ['CRD of the core group', ...CRDS, crd(''), true],
    ['CRD of example.com', ...CRDS, crd('example.com'), false],
    ['CRD of edge.kcp.io', ...CRDS, crd('edge.kcp.io'), false],
    ['CRD without group', ...CRDS, crd(undefined), false],
    ['ConfigMap named default', '', 'configmaps', ns('default'), false],
  ]
  it.for(cases)('%s → %s', ([_label, group, resource, o, want]) => {
    expect(isBuiltinDefinition(group, resource, o, b)).toBe(want)
  })

  it('follows the configured namespaces', () => {
    const custom = builtinsFrom(['edge-agent'])
    expect(isBuiltinDefinition('', 'namespaces', ns('edge-agent'), custom)).toBe(true)
    expect(isBuiltinDefinition('', 'namespaces', ns('kube-system'), custom)).toBe(false)
  })
})
