/**
 * The simulated edge's command line (flags, environment, errors) and its ready line (format,
 * parse, reading it from a child's stdout).
 */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { parseEdgeSimArgs } from '../../../infra/edge-sim/cli-args.ts'
import {
  formatReadyLine,
  parseReadyLine,
  waitForReadyLine,
} from '../../../infra/edge-sim/ready-line.ts'

const REQUIRED = [
  '--name',
  'florin',
  '--ddb-endpoint',
  'http://127.0.0.1:8000',
  '--token-file',
  '/t',
]

describe('parseEdgeSimArgs', () => {
  it('reads the required flags and fills in defaults', () => {
    expect(parseEdgeSimArgs(REQUIRED, {})).toEqual({
      kind: 'run',
      config: {
        name: 'florin',
        ddbEndpoint: 'http://127.0.0.1:8000',
        tokenFile: '/t',
        region: 'us-east-1',
        host: '127.0.0.1',
        port: 0,
        faults: [],
      },
    })
  })

  it('reads the faults to simulate, from the flag or EDGE_FAULTS, and refuses bad ones', () => {
    expect(parseEdgeSimArgs([...REQUIRED, '--faults', 'crash-loop@*:bad'], {})).toMatchObject({
      config: { faults: [{ kind: 'crash-loop', image: '*:bad' }] },
    })
    expect(parseEdgeSimArgs(REQUIRED, { EDGE_FAULTS: 'job-fail' })).toMatchObject({
      config: { faults: [{ kind: 'job-fail' }] },
    })
    expect(parseEdgeSimArgs([...REQUIRED, '--faults', 'oom'], {})).toEqual({
      kind: 'error',
      message: expect.stringMatching(/^--faults: "oom": the fault is one of image-pull/),
    })
  })

  it('takes the environment when flags are absent, flags first', () => {
    const env = {
      EDGE_NAME: 'guilder',
      DDB_ENDPOINT: 'http://db:1',
      EDGE_TOKEN_FILE: '/tok',
      EDGE_CERT_DIR: '/tls',
      EDGE_PORT: '6443',
      EDGE_TABLE: 'g',
    }
    const r = parseEdgeSimArgs(['--port=7443', '--parent-pid', '42'], env)
    expect(r).toMatchObject({
      kind: 'run',
      config: {
        name: 'guilder',
        ddbEndpoint: 'http://db:1',
        tokenFile: '/tok',
        certDir: '/tls',
        port: 7443,
        table: 'g',
        parentPid: 42,
      },
    })
  })

  it.each([
    [['-h'], 'help'],
    [['--help', '--bogus'], 'help'],
  ])('%j asks for help', (argv, kind) => {
    expect(parseEdgeSimArgs(argv, {}).kind).toBe(kind)
  })

  it.each([
    [[], 'missing --name'],
    [['--name', 'Florin'], '--name must be a DNS label'],
    [['--name', 'f'], 'missing --ddb-endpoint'],
    [['--name', 'f', '--ddb-endpoint', 'db:1'], '--ddb-endpoint must be an http(s) URL'],
    [['--name', 'f', '--ddb-endpoint', 'http://db'], 'missing --token-file'],
    [[...REQUIRED, '--port', '70000'], '--port must be a port number'],
    [[...REQUIRED, '--parent-pid', '0'], '--parent-pid must be a positive integer'],
    [[...REQUIRED, '--nope'], 'unknown argument: --nope'],
    [[...REQUIRED, '--table'], '--table needs a value'],
  ])('%j is an error (%s)', (argv, message) => {
    const r = parseEdgeSimArgs(argv, {})
    expect(r.kind).toBe('error')
    expect(r.kind === 'error' && r.message).toContain(message)
  })
})

describe('the ready line', () => {
  const info = { name: 'florin', url: 'https://127.0.0.1:1', table: 'edge-florin', pid: 7 }

  it('round-trips and ignores other lines', () => {
    const line = formatReadyLine(info)
    expect(line.endsWith('\n')).toBe(true)
    expect(parseReadyLine(line.trim())).toEqual({ ready: true, ...info })
    expect(parseReadyLine('{"level":"info","msg":"x"}')).toBeUndefined()
    expect(parseReadyLine('not json')).toBeUndefined()
  })

  it('is found in a stream after other output, split across chunks', async () => {
    const out = new PassThrough()
    const waiting = waitForReadyLine(out, 5_000)
    const line = formatReadyLine(info)
    out.write('noise\n{"ready":')
    out.write(line.slice(9))
    await expect(waiting).resolves.toEqual({ ready: true, ...info })
  })

  it('fails when the stream ends first', async () => {
    const out = new PassThrough()
    const waiting = waitForReadyLine(out, 5_000)
    out.end('bye\n')
    await expect(waiting).rejects.toThrow('exited before it was ready')
  })
})
