/**
 * The agent Secret at a simulated edge (infra/local/edge-secret.ts): decoded as a pod sees it,
 * kept only when it names this edge's mailbox, this stack's center URL (a trailing slash aside)
 * and certificate and holds a token; each other case says why, so `npm start` can log it and
 * join the edge again.
 */
import { describe, expect, it } from 'vitest'
import {
  type ExpectedSecret,
  hasSecret,
  type SecretValues,
  secretValues,
  staleReason,
} from '../../../infra/local/edge-secret.ts'

const b64 = (s: string) => Buffer.from(s).toString('base64')
const want: ExpectedSecret = {
  mailbox: 'mb-1',
  centerUrl: 'https://127.0.0.1:8787',
  caPem: '-----BEGIN CERTIFICATE-----\nSTACK\n',
}
const good: SecretValues = {
  mailbox: 'mb-1',
  center: 'https://127.0.0.1:8787/',
  token: 'tok',
  ca: '-----BEGIN CERTIFICATE-----\nSTACK',
}

describe('secretValues', () => {
  it('decodes the data a pod would mount, undefined for what is absent', () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'edgeplane-agent' },
      data: { center: b64('https://c'), mailbox: b64('mb'), token: b64('t') },
    }
    expect(secretValues(secret)).toEqual({
      center: 'https://c',
      mailbox: 'mb',
      token: 't',
      ca: undefined,
    })
    expect(hasSecret(secretValues(undefined))).toBe(false)
  })
})

describe('staleReason', () => {
  it('keeps a Secret of this mailbox, center and certificate', () => {
    expect(staleReason(good, want)).toBeUndefined()
    expect(staleReason({ ...good, ca: undefined }, want)).toBeUndefined()
  })
  it.each([
    [{ mailbox: undefined, center: undefined, token: undefined, ca: undefined }, /no agent Secret/],
    [{ ...good, mailbox: 'mb-0' }, /mailbox mb-0, not mb-1/],
    [
      { ...good, center: 'https://center.example:8787' },
      /another center \(https:\/\/center\.example:8787, not https:\/\/127\.0\.0\.1:8787\)/,
    ],
    [{ ...good, center: 'https://127.0.0.1:8800' }, /another center/],
    [{ ...good, token: '' }, /no token/],
    [{ ...good, ca: '-----BEGIN CERTIFICATE-----\nOLD' }, /another certificate/],
  ])('does not keep %o', (values, reason) => {
    expect(staleReason(values, want)).toMatch(reason)
  })
})
