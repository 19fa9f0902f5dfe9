import { describe, expect, it } from 'vitest'
import {
  type BootstrapFlags,
  parseBootstrapArgs,
  USAGE,
  withStackDefaults,
} from '../../../infra/edge-bootstrap/cli-args.ts'
import type { StackInfo } from '../../../infra/local/stack-info.ts'

const REQUIRED = ['--inventory', 'root:imw-1', '--sync-target', 'florin']

describe('parseBootstrapArgs', () => {
  it('asks for help', () => {
    expect(parseBootstrapArgs(['-h'], {}, '/w')).toEqual({ kind: 'help' })
    expect(parseBootstrapArgs([...REQUIRED, '--help'], {}, '/w')).toEqual({ kind: 'help' })
    for (const flag of [
      '--hub',
      '--token-file',
      '--inventory',
      '--sync-target',
      '--out',
      '--center-url',
    ])
      expect(USAGE).toContain(flag)
  })
  it('takes flags over environment, with defaults', () => {
    const env = { EDGEPLANE_HUB: 'https://env:1/', EDGEPLANE_TOKEN_FILE: '/t', EDGEPLANE_DATA: 'd' }
    expect(parseBootstrapArgs(REQUIRED, env, '/w')).toEqual({
      kind: 'run',
      flags: {
        inventory: 'root:imw-1',
        syncTarget: 'florin',
        hubUrl: 'https://env:1',
        tokenFile: '/t',
        waitSeconds: 30,
        dataDir: '/w/d',
      },
    })
    const r = parseBootstrapArgs(
      [
        ...REQUIRED,
        '--hub=http://flag:2',
        '--token-file',
        '/flag',
        '--ca-file=/ca.pem',
        '--out',
        'edge.yaml',
        '--center-url',
        'https://center:443',
        '--image',
        'img:1',
        '--namespace',
        'agents',
        '--poll-interval',
        '5',
        '--wait',
        '0',
      ],
      env,
      '/w'
    )
    expect(r).toEqual({
      kind: 'run',
      flags: {
        inventory: 'root:imw-1',
        syncTarget: 'florin',
        hubUrl: 'http://flag:2',
        tokenFile: '/flag',
        caFile: '/ca.pem',
        out: 'edge.yaml',
        centerUrl: 'https://center:443',
        image: 'img:1',
        namespace: 'agents',
        pollIntervalSeconds: 5,
        waitSeconds: 0,
        dataDir: '/w/d',
      },
    })
    expect(parseBootstrapArgs(REQUIRED, {}, '/w')).toMatchObject({
      flags: { dataDir: '/w/.edgeplane' },
    })
  })
  it.each([
    [[]],
    [['--inventory', 'root:imw-1']],
    [['--sync-target', 'florin']],
    [[...REQUIRED, '--hub', 'ftp://h']],
    [[...REQUIRED, '--center-url', 'center']],
    [[...REQUIRED, '--poll-interval', '0']],
    [[...REQUIRED, '--poll-interval', 'x']],
    [[...REQUIRED, '--wait', '-1']],
    [[...REQUIRED, '--out']],
    [[...REQUIRED, '--bogus', 'x']],
  ])('rejects %o', (argv) => {
    expect(parseBootstrapArgs(argv, {}, '/w').kind).toBe('error')
  })
})

describe('withStackDefaults', () => {
  const flags: BootstrapFlags = {
    inventory: 'root:imw-1',
    syncTarget: 'florin',
    waitSeconds: 30,
    dataDir: '/w/.edgeplane',
  }
  const stack = {
    url: 'https://127.0.0.1:8787',
    adminTokenFile: '/w/.edgeplane/admin-token',
    caFile: '/w/.edgeplane/tls/cert.pem',
  } as StackInfo

  it('takes the hub, token and CA of the running local stack', () => {
    expect(withStackDefaults(flags, stack)).toEqual({
      ...flags,
      hubUrl: 'https://127.0.0.1:8787',
      tokenFile: '/w/.edgeplane/admin-token',
      caFile: '/w/.edgeplane/tls/cert.pem',
    })
  })
  it('does not lend the stack token or CA to another hub', () => {
    expect(withStackDefaults({ ...flags, hubUrl: 'https://other' }, stack)).toMatch(/--token-file/)
    expect(
      withStackDefaults({ ...flags, hubUrl: 'https://other', tokenFile: '/t' }, stack)
    ).toEqual({
      ...flags,
      hubUrl: 'https://other',
      tokenFile: '/t',
    })
  })
  it('says what is missing without a stack', () => {
    expect(withStackDefaults(flags, undefined)).toMatch(/missing --hub .* \/w\/\.edgeplane/)
    expect(withStackDefaults({ ...flags, hubUrl: 'http://h' }, undefined)).toMatch(/--token-file/)
  })
})
