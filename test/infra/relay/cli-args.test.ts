import { describe, expect, it } from 'vitest'
import { parseRelayArgs, USAGE } from '../../../infra/relay/cli-args.ts'

describe('parseRelayArgs', () => {
  it('asks for help', () => {
    expect(parseRelayArgs(['--hub', 'x', '-h'], {})).toEqual({ kind: 'help' })
    expect(USAGE).toContain('--token-file')
  })
  it('takes flags over environment, with defaults', () => {
    const env = { EDGEPLANE_HUB: 'https://env:1', EDGEPLANE_TOKEN_FILE: '/t', TABLE_NAME: 'tbl' }
    expect(parseRelayArgs(['--hub=http://flag:2', '--delay-ms', '50'], env)).toEqual({
      kind: 'run',
      config: {
        hubUrl: 'http://flag:2',
        tokenFile: '/t',
        table: 'tbl',
        region: 'us-east-1',
        delayMs: 50,
        hubTimeoutMs: 30_000,
        health: { port: 9464 },
      },
    })
    const r = parseRelayArgs(['--ddb-endpoint', 'http://d:8000', '--table', 'x'], env)
    expect(r).toMatchObject({
      kind: 'run',
      config: { hubUrl: 'https://env:1', ddbEndpoint: 'http://d:8000', table: 'x', delayMs: 200 },
    })
    expect(parseRelayArgs(['--parent-pid=42'], env)).toMatchObject({ config: { parentPid: 42 } })
  })
  it('reads the health server settings: a port, 0 for a free one, off for none', () => {
    const env = { EDGEPLANE_HUB: 'https://h', EDGEPLANE_TOKEN_FILE: '/t' }
    const health = (argv: string[], more: Record<string, string> = {}) => {
      const r = parseRelayArgs(argv, { ...env, ...more })
      return r.kind === 'run' ? r.config.health : r.kind === 'error' ? r.message : 'help'
    }
    expect(health(['--health-port', '0', '--health-host', '127.0.0.1'])).toEqual({
      port: 0,
      host: '127.0.0.1',
    })
    expect(health([], { EDGEPLANE_HEALTH_PORT: '9000' })).toEqual({ port: 9000 })
    expect(health(['--health-port=8080'], { EDGEPLANE_HEALTH_PORT: '9000' })).toEqual({
      port: 8080,
    })
    expect(health(['--health-port', 'off'])).toBeUndefined()
    expect(health(['--health-port', '65536'])).toMatch(/port number/)
    expect(health(['--health-port', '-1'])).toMatch(/port number/)
    expect(health(['--health-host', 'a b'])).toMatch(/--health-host/)
    expect(USAGE).toContain('--health-port')
  })
  it('reads --hub-timeout in seconds, over EDGEPLANE_HUB_TIMEOUT, from 1 to 600', () => {
    const env = { EDGEPLANE_HUB: 'https://h', EDGEPLANE_TOKEN_FILE: '/t' }
    const timeout = (argv: string[], more: Record<string, string> = {}) => {
      const r = parseRelayArgs(argv, { ...env, ...more })
      return r.kind === 'run' ? r.config.hubTimeoutMs : r.kind === 'error' ? r.message : 'help'
    }
    expect(timeout([])).toBe(30_000)
    expect(timeout(['--hub-timeout', '5'])).toBe(5000)
    expect(timeout(['--hub-timeout=1.5'], { EDGEPLANE_HUB_TIMEOUT: '9' })).toBe(1500)
    expect(timeout([], { EDGEPLANE_HUB_TIMEOUT: '120' })).toBe(120_000)
    expect(timeout(['--hub-timeout', '600'])).toBe(600_000)
    for (const bad of ['0', '0.5', '601', '5s', '-5', ''])
      expect(timeout(['--hub-timeout', bad])).toMatch(/--hub-timeout|needs a value/)
    expect(timeout([], { EDGEPLANE_HUB_TIMEOUT: 'x' })).toMatch(/--hub-timeout must be/)
    expect(USAGE).toMatch(
      /--hub-timeout SECS .*\n(.*\n){2}.*\[EDGEPLANE_HUB_TIMEOUT\] \(default 30/
    )
  })
  it('reads --stale-after in whole seconds, over EDGE_STALE_AFTER_SECONDS, from 3 to 86400', () => {
    const env = { EDGEPLANE_HUB: 'https://h', EDGEPLANE_TOKEN_FILE: '/t' }
    const stale = (argv: string[], more: Record<string, string> = {}) => {
      const r = parseRelayArgs(argv, { ...env, ...more })
      return r.kind === 'run' ? r.config.staleAfterSeconds : r.kind === 'error' ? r.message : 'help'
    }
    expect(stale([])).toBeUndefined()
    expect(stale(['--stale-after', '30'])).toBe(30)
    expect(stale(['--stale-after=60'], { EDGE_STALE_AFTER_SECONDS: '9' })).toBe(60)
    expect(stale([], { EDGE_STALE_AFTER_SECONDS: '9' })).toBe(9)
    for (const bad of ['2', '86401', '1.5', 'soon'])
      expect(stale(['--stale-after', bad])).toMatch(/--stale-after must be/)
    expect(USAGE).toContain('[EDGE_STALE_AFTER_SECONDS]')
  })
  it('rejects bad input', () => {
    const ok = { EDGEPLANE_HUB: 'http://h', EDGEPLANE_TOKEN_FILE: '/t' }
    const kind = (argv: string[], env: Record<string, string> = ok) =>
      parseRelayArgs(argv, env).kind
    expect(kind([], {})).toBe('error')
    expect(kind([], { EDGEPLANE_HUB: 'http://h' })).toBe('error')
    expect(kind(['--hub', 'ftp://h'])).toBe('error')
    expect(kind(['--delay-ms', '-1'])).toBe('error')
    expect(kind(['--delay-ms'])).toBe('error')
    expect(kind(['--bogus'])).toBe('error')
    expect(kind(['--parent-pid', '0'])).toBe('error')
    expect(kind(['--parent-pid', 'x'])).toBe('error')
    expect(kind([])).toBe('run')
  })
})
