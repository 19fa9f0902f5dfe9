/**
 * The clusterIP/nodePort allocator over a real key-value store: the service range, reservations
 * held by their Service, taken over only after the grace period once the Service is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type AllocatorDeps,
  allocateClusterIp,
  inServiceRange,
  ipToNumber,
  numberToIp,
  RESERVATION_GRACE_MS,
  reserveClusterIp,
  reserveNodePort,
} from '../../../lib/edge-sim/allocator.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let store: TestStore
let clock = 1_000_000
const services = new Map<string, Record<string, unknown>>()
let deps: AllocatorDeps
beforeAll(async () => {
  store = await createTestStore()
  deps = {
    kv: store.kv,
    now: () => new Date(clock),
    service: async (ns, name) => services.get(`${ns}/${name}`),
  }
})
afterAll(() => store?.close())

const who = (name: string) => ({ namespace: 'n', name })

describe('the clusterIP and nodePort allocator', () => {
  it.each([
    ['10.96.0.0', false],
    ['10.96.0.1', true],
    ['10.100.12.34', true],
    ['10.111.255.254', true],
    ['10.111.255.255', false],
    ['10.112.0.1', false],
    ['10.0.0.10', false],
    ['not-an-ip', false],
  ])('%s in the service range: %s', (ip, inside) => {
    expect(inServiceRange(ip)).toBe(inside)
  })

  it('converts addresses both ways', () => {
    expect(numberToIp(ipToNumber('10.101.2.3') ?? 0)).toBe('10.101.2.3')
  })

  it('gives a reserved address to its holder only, until the holder is gone past the grace period', async () => {
    expect(await reserveClusterIp(deps, '10.96.5.5', who('a'))).toBe(true)
    expect(await reserveClusterIp(deps, '10.96.5.5', who('a'))).toBe(true)
    expect(await reserveClusterIp(deps, '10.96.5.5', who('b'))).toBe(false)
    clock += RESERVATION_GRACE_MS
    services.set('n/a', { spec: { clusterIP: '10.96.5.5' } })
    expect(await reserveClusterIp(deps, '10.96.5.5', who('b'))).toBe(false)
    services.delete('n/a')
    expect(await reserveClusterIp(deps, '10.96.5.5', who('b'))).toBe(true)
    expect(await reserveClusterIp(deps, '10.96.5.5', who('a'))).toBe(false)
  })

  it('picks another address when the random one is taken, and reserves nothing on a dry run', async () => {
    const picks = [0.5, 0.5, 0.25]
    const random = () => picks.shift() ?? 0.75
    const first = await allocateClusterIp({ ...deps, random }, who('x'), false)
    const second = await allocateClusterIp({ ...deps, random }, who('y'), false)
    expect(second).not.toBe(first)
    const dry = await allocateClusterIp({ ...deps, random: () => 0.9 }, who('z'), true)
    expect(await reserveClusterIp(deps, dry, who('w'))).toBe(true)
  })

  it('reserves node ports per protocol', async () => {
    expect(await reserveNodePort(deps, 30080, 'TCP', who('a'))).toBe(true)
    expect(await reserveNodePort(deps, 30080, 'TCP', who('b'))).toBe(false)
    expect(await reserveNodePort(deps, 30080, 'UDP', who('b'))).toBe(true)
  })
})
