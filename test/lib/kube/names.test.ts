import { describe, expect, it } from 'vitest'
import {
  configKeyErrors,
  dns1035LabelErrors,
  dnsLabelErrors,
  dnsSubdomainErrors,
  GENERATED_SUFFIX_LENGTH,
  generateObjectName,
  isLabelValue,
  isQualifiedName,
  labelValueErrors,
  maskTrailingDash,
  pathSegmentErrors,
  qualifiedNameErrors,
  randomNameSuffix,
} from '../../../lib/kube/names.ts'

describe('DNS names', () => {
  it('accepts subdomains and rejects bad ones with kube wording', () => {
    expect(dnsSubdomainErrors('edge-placement-c')).toEqual([])
    expect(dnsSubdomainErrors('a.b-c.d')).toEqual([])
    expect(dnsSubdomainErrors('Upper')[0]).toContain('a lowercase RFC 1123 subdomain')
    expect(dnsSubdomainErrors('-lead')).toHaveLength(1)
    expect(dnsSubdomainErrors('trail.')).toHaveLength(1)
    expect(dnsSubdomainErrors('a'.repeat(254))).toContain('must be no more than 253 characters')
  })

  it('labels: no dots, at most 63', () => {
    expect(dnsLabelErrors('commonstuff')).toEqual([])
    expect(dnsLabelErrors('123-abc')).toEqual([])
    expect(dnsLabelErrors('a.b')[0]).toContain('RFC 1123 label')
    expect(dnsLabelErrors('a'.repeat(64))).toContain('must be no more than 63 characters')
  })

  it('DNS-1035 labels must start with a letter', () => {
    expect(dns1035LabelErrors('svc-1')).toEqual([])
    expect(dns1035LabelErrors('1svc')[0]).toContain('DNS-1035')
  })

  it('path segments only forbid ., .., / and %', () => {
    expect(pathSegmentErrors('system:controller:foo')).toEqual([])
    expect(pathSegmentErrors('..')).toEqual(["may not be '..'"])
    expect(pathSegmentErrors('a/b%')).toEqual(["may not contain '/'", "may not contain '%'"])
  })
})

describe('qualified names and label values', () => {
  it('accepts prefixed and plain keys', () => {
    expect(isQualifiedName('app')).toBe(true)
    expect(isQualifiedName('edge.kcp.io/expand-parameters')).toBe(true)
    expect(isQualifiedName('kubernetes.io/My_Name.1')).toBe(true)
  })

  it('rejects bad prefixes, empty names and extra slashes', () => {
    expect(qualifiedNameErrors('Bad_Prefix/x')[0]).toMatch(/^prefix part /)
    expect(qualifiedNameErrors('a/')).toContain('name part must be non-empty')
    expect(qualifiedNameErrors('/x')).toContain('prefix part must be non-empty')
    expect(qualifiedNameErrors('a/b/c')).toHaveLength(1)
    expect(qualifiedNameErrors('-x')[0]).toContain('name part must consist')
    expect(qualifiedNameErrors('x'.repeat(64))).toContain(
      'name part must be no more than 63 characters'
    )
  })

  it('label values may be empty but not malformed', () => {
    expect(isLabelValue('')).toBe(true)
    expect(isLabelValue('si')).toBe(true)
    expect(labelValueErrors('has space')[0]).toContain('a valid label must be an empty string')
    expect(labelValueErrors('v'.repeat(64))).toContain('must be no more than 63 characters')
  })

  it('config keys', () => {
    expect(configKeyErrors('index.html')).toEqual([])
    expect(configKeyErrors('KEY_NAME')).toEqual([])
    expect(configKeyErrors('a b')[0]).toContain('a valid config key')
    expect(configKeyErrors('..x')).toContain("must not start with '..'")
  })
})

describe('generateName', () => {
  it('masks a trailing dash for prefix validation', () => {
    expect(maskTrailingDash('web-')).toBe('weba')
    expect(maskTrailingDash('-')).toBe('-')
    expect(dnsSubdomainErrors(maskTrailingDash('web-'))).toEqual([])
  })

  it('appends five characters from the vowel-free alphabet, deterministically', () => {
    const seq = [0, 0.5, 0.999, 0.1, 0.3]
    let i = 0
    const random = () => seq[i++ % seq.length] ?? 0
    const suffix = randomNameSuffix(random)
    expect(suffix).toHaveLength(GENERATED_SUFFIX_LENGTH)
    expect(suffix).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{5}$/)
    expect(suffix[0]).toBe('b')
    expect(suffix[2]).toBe('9')
    i = 0
    expect(generateObjectName('web-', random)).toBe(`web-${suffix}`)
  })

  it('cuts long prefixes so the name fits a label', () => {
    const name = generateObjectName('p'.repeat(80), () => 0)
    expect(name).toHaveLength(63)
    expect(name.endsWith('bbbbb')).toBe(true)
  })
})
