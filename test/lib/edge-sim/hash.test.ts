/**
 * Pod-template hashes (FNV-32a, kube's safe alphabet, stable under key order, hash labels and
 * nulls) and the image names a container runtime reports.
 */
import { describe, expect, it } from 'vitest'
import { fnv32a, podTemplateHash, qualifiedImage, safeEncode } from '../../../lib/edge-sim/hash.ts'

const template = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
}

describe('pod-template hashes', () => {
  it('FNV-32a of known inputs', () => {
    expect(fnv32a('')).toBe(0x811c9dc5)
    expect(fnv32a('a')).toBe(0xe40c292c)
  })

  it('encodes onto kube’s vowel-free alphabet', () => {
    expect(safeEncode('0123456789')).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{10}$/)
  })

  it('is stable, key-order blind, and ignores the hash label and null members', () => {
    const h = podTemplateHash(template)
    expect(h).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/)
    expect(podTemplateHash({ spec: template.spec, metadata: template.metadata })).toBe(h)
    const labelled = {
      ...template,
      metadata: { creationTimestamp: null, labels: { app: 'web', 'pod-template-hash': h } },
    }
    expect(podTemplateHash(labelled)).toBe(h)
    const changed = { ...template, metadata: { labels: { app: 'web' }, annotations: { a: 'b' } } }
    expect(podTemplateHash(changed)).not.toBe(h)
  })

  it.each([
    ['nginx', 'docker.io/library/nginx:latest'],
    ['nginx:1.27', 'docker.io/library/nginx:1.27'],
    ['team/app:v1', 'docker.io/team/app:v1'],
    ['ghcr.io/org/app', 'ghcr.io/org/app:latest'],
    ['localhost:5000/app:v2', 'localhost:5000/app:v2'],
  ])('the runtime reports %s as %s', (image, reported) => {
    expect(qualifiedImage(image)).toBe(reported)
  })
})
