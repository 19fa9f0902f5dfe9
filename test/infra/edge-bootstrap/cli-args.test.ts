import { describe, expect, it } from 'vitest'
import {
  type BootstrapFlags,
  parseBootstrapArgs,
  USAGE,
  withStackDefaults,
} from '../../../infra/edge-bootstrap/cli-args.ts'
import type { StackInfo } from '../../../infra/local/stack-info.ts'
import type { FoundStack } from '../../../infra/stack-discovery.ts'

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
      '--rotate',
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
        '--rotate',
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
        out: '/w/edge.yaml',
        centerUrl: 'https://center:443',
        image: 'img:1',
        namespace: 'agents',
        pollIntervalSeconds: 5,
        waitSeconds: 0,
        rotate: true,
      },
    })
  })
  it('writes --out relative to the folder the command was typed in (npm run changes the cwd)', () => {
    const argv = [...REQUIRED, '--out', 'tulip.yaml']
    expect(parseBootstrapArgs(argv, { INIT_CWD: '/home/me' }, '/w')).toMatchObject({
      flags: { out: '/home/me/tulip.yaml' },
    })
    expect(parseBootstrapArgs([...REQUIRED, '--out', '/abs.yaml'], {}, '/w')).toMatchObject({
      flags: { out: '/abs.yaml' },
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
    [[...REQUIRED, '--rotate=yes']],
    [[...REQUIRED, '--bogus', 'x']],
  ])('rejects %o', (argv) => {
    expect(parseBootstrapArgs(argv, {}, '/w').kind).toBe('error')
  })
})

describe('withStackDefaults', () => {
  const flags: BootstrapFlags = { inventory: 'root:imw-1', syncTarget: 'florin', waitSeconds: 30 }
  const info = {
    url: 'https://127.0.0.1:8787',
    adminTokenFile: '/w/.edgeplane/admin-token',
    caFile: '/w/.edgeplane/tls/cert.pem',
  } as StackInfo
  const stack: FoundStack = { dataDir: '/w/.edgeplane', info }
  const none: FoundStack = { dataDir: '/w/.edgeplane', info: undefined }

  it('takes the hub, token and CA of the running local stack', () => {
    expect(withStackDefaults(flags, stack)).toEqual({
      ...flags,
      hubUrl: 'https://127.0.0.1:8787',
      tokenFile: '/w/.edgeplane/admin-token',
      caFile: '/w/.edgeplane/tls/cert.pem',
    })
  })
  it("trusts the stack's certificate for its hub named by another loopback name", () => {
    expect(
      withStackDefaults({ ...flags, hubUrl: 'https://localhost:8787', tokenFile: '/t' }, stack)
    ).toMatchObject({ hubUrl: 'https://localhost:8787', caFile: '/w/.edgeplane/tls/cert.pem' })
    expect(
      withStackDefaults({ ...flags, hubUrl: 'https://localhost:8800', tokenFile: '/t' }, stack)
    ).not.toHaveProperty('caFile')
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
    expect(withStackDefaults(flags, none)).toMatch(/missing --hub .* \/w\/\.edgeplane/)
    expect(withStackDefaults({ ...flags, hubUrl: 'http://h' }, none)).toMatch(/--token-file/)
  })
})
