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
      },
    })
    const r = parseRelayArgs(['--ddb-endpoint', 'http://d:8000', '--table', 'x'], env)
    expect(r).toMatchObject({
      kind: 'run',
      config: { hubUrl: 'https://env:1', ddbEndpoint: 'http://d:8000', table: 'x', delayMs: 200 },
    })
    expect(parseRelayArgs(['--parent-pid=42'], env)).toMatchObject({ config: { parentPid: 42 } })
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
