/**
 * A self-signed TLS certificate for the local hub, made with node:crypto alone (no openssl): an
 * ECDSA P-256 key and an X.509 v3 certificate, DER-encoded here, valid for `localhost` and
 * 127.0.0.1, marked as its own CA so a kubeconfig can trust it through
 * `certificate-authority-data`. HTTPS is needed because kubectl never sends a bearer token to an
 * `http://` server.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto'

export type TlsMaterial = { certPem: string; keyPem: string }

export type CertOptions = {
  commonName: string
  dnsNames: string[]
  /** IPv4 addresses, dotted. */
  ipAddresses: string[]
  days: number
  now?: Date
}

function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length
  if (n < 0x80) return Buffer.concat([Buffer.from([tag, n]), content])
  const len: number[] = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) len.unshift(v % 256)
  return Buffer.concat([Buffer.from([tag, 0x80 | len.length, ...len]), content])
}

const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts))
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts))
const explicit = (n: number, inner: Buffer) => tlv(0xa0 + n, inner)
const octets = (b: Buffer) => tlv(0x04, b)
const bits = (b: Buffer, unused = 0) => tlv(0x03, Buffer.concat([Buffer.from([unused]), b]))
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]))
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'))

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number)
  const out = [40 * a + b]
  for (const arc of rest) {
    const chunk = [arc & 0x7f]
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128))
      chunk.unshift(0x80 | (v & 0x7f))
    out.push(...chunk)
  }
  return tlv(0x06, Buffer.from(out))
}

function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14)
  const year = d.getUTCFullYear()
  return year < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`))
    : tlv(0x18, Buffer.from(`${iso}Z`))
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [bool(true)] : []), octets(value))
}

function serialNumber(): Buffer {
  const b = Buffer.from(crypto.getRandomValues(new Uint8Array(16)))
  b[0] = ((b[0] ?? 0) & 0x7f) | 0x40
  return tlv(0x02, b)
}

const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'))

function subjectAltName(dnsNames: string[], ips: string[]): Buffer {
  const dns = dnsNames.map((n) => tlv(0x82, Buffer.from(n, 'ascii')))
  const ip = ips.map((a) => tlv(0x87, Buffer.from(a.split('.').map(Number))))
  return seq(...dns, ...ip)
}

/** A new key and self-signed certificate, PEM-encoded. */
export function createSelfSignedCert(opts: CertOptions): TlsMaterial {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const spki = publicKey.export({ type: 'spki', format: 'der' })
  const name = seq(set(seq(oid('2.5.4.3'), utf8(opts.commonName))))
  const now = opts.now ?? new Date()
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000)
  const notAfter = new Date(now.getTime() + opts.days * 24 * 60 * 60 * 1000)
  const extensions = seq(
    extension('2.5.29.19', true, seq(bool(true))),
    extension('2.5.29.15', true, bits(Buffer.from([0x84]), 2)),
    extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))),
    extension('2.5.29.14', false, octets(createHash('sha1').update(spki).digest())),
    extension('2.5.29.17', false, subjectAltName(opts.dnsNames, opts.ipAddresses))
  )
  const tbs = seq(
    explicit(0, tlv(0x02, Buffer.from([2]))),
    serialNumber(),
    ECDSA_SHA256,
    name,
    seq(time(notBefore), time(notAfter)),
    name,
    spki,
    explicit(3, extensions)
  )
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' })
  const der = seq(tbs, ECDSA_SHA256, bits(signature))
  const body = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd()
  return {
    certPem: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`,
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  }
}

/** The certificate for a local hub on 127.0.0.1 / localhost. */
export function createLocalHubCert(now?: Date): TlsMaterial {
  return createSelfSignedCert({
    commonName: 'edgeplane local hub',
    dnsNames: ['localhost'],
    ipAddresses: ['127.0.0.1'],
    days: 3650,
    ...(now ? { now } : {}),
  })
}
