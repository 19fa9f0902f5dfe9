import { createPrivateKey, X509Certificate } from 'node:crypto'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createLocalHubCert, createSelfSignedCert } from '../../../infra/local/tls-cert.ts'
import { createRemote } from '../../../lib/remote/remote-client.ts'

describe('self-signed certificate', () => {
  it('is a self-signed CA for localhost and 127.0.0.1, valid now for about ten years', () => {
    const now = new Date('2026-06-01T00:00:00Z')
    const { certPem, keyPem } = createLocalHubCert(now)
    const x = new X509Certificate(certPem)
    expect(x.ca).toBe(true)
    expect(x.subject).toBe('CN=edgeplane local hub')
    expect(x.issuer).toBe(x.subject)
    expect(x.verify(x.publicKey)).toBe(true)
    expect(x.checkIP('127.0.0.1')).toBe('127.0.0.1')
    expect(x.checkHost('localhost')).toBe('localhost')
    expect(x.checkIP('10.0.0.1')).toBeUndefined()
    expect(new Date(x.validFrom).getTime()).toBeLessThan(now.getTime())
    expect(new Date(x.validTo).getUTCFullYear()).toBe(2036)
    expect(keyPem).toContain('BEGIN PRIVATE KEY')
    expect(x.checkPrivateKey(createPrivateKey(keyPem))).toBe(true)
  })

  it('uses a fresh key and serial each time, and GeneralizedTime past 2049', () => {
    const a = new X509Certificate(createLocalHubCert().certPem)
    const b = new X509Certificate(createLocalHubCert().certPem)
    expect(a.serialNumber).not.toBe(b.serialNumber)
    expect(a.fingerprint256).not.toBe(b.fingerprint256)
    const late = createSelfSignedCert({
      commonName: 'x',
      dnsNames: [],
      ipAddresses: ['127.0.0.1'],
      days: 30,
      now: new Date('2060-01-01T00:00:00Z'),
    })
    expect(new Date(new X509Certificate(late.certPem).validTo).getUTCFullYear()).toBe(2060)
  })

  it('is trusted by an https client given it as CA, and refused without it', async () => {
    const { certPem, keyPem } = createLocalHubCert()
    const server = createServer({ cert: certPem, key: keyPem }, (_req, res) => res.end('secure'))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`
    try {
      const res = await createRemote({ baseUrl: url, ca: certPem }).send('/')
      expect(await res.text()).toBe('secure')
      await expect(createRemote({ baseUrl: url }).send('/')).rejects.toThrow(
        /self-signed|self signed/
      )
      const other = createLocalHubCert().certPem
      await expect(createRemote({ baseUrl: url, ca: other }).send('/')).rejects.toThrow()
    } finally {
      await new Promise<void>((r) => server.close(() => r()))
    }
  })
})
