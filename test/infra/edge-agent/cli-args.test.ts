import { describe, expect, it } from 'vitest'
import { parseAgentArgs } from '../../../infra/edge-agent/cli-args.ts'

const required = ['--center', 'https://c.example', '--mailbox', 'inv-mb-1', '--token-file', '/t']

describe('parseAgentArgs', () => {
  it('reads flags with defaults', () => {
    expect(parseAgentArgs(required, {})).toEqual({
      kind: 'run',
      config: {
        centerUrl: 'https://c.example',
        mailbox: 'inv-mb-1',
        tokenFile: '/t',
        pollIntervalMs: 15_000,
        centerTimeoutMs: 30_000,
        heartbeatMs: 60_000,
        holdSeconds: 300,
        stateDir: './.edgeplane-agent',
        builtinNamespaces: ['default', 'kube-system', 'kube-public', 'kube-node-lease'],
        once: false,
        health: { port: 9464 },
      },
    })
  })

  it('reads the health server settings, flags over environment', () => {
    const health = (argv: string[], env: Record<string, string> = {}) => {
      const r = parseAgentArgs([...required, ...argv], env)
      return r.kind === 'run' ? r.config.health : r.kind === 'error' ? r.message : 'help'
    }
    const env = { EDGEPLANE_HEALTH_PORT: '9000', EDGEPLANE_HEALTH_HOST: '0.0.0.0' }
    expect(health([], env)).toEqual({ port: 9000, host: '0.0.0.0' })
    expect(health(['--health-port', '0', '--health-host=::1'], env)).toEqual({
      port: 0,
      host: '::1',
    })
    expect(health(['--health-port=off'])).toBeUndefined()
    expect(health(['--health-port', 'http'])).toMatch(/--health-port must be a port number/)
  })

  it('takes the environment, flags winning', () => {
    const env = {
      EDGEPLANE_CENTER: 'http://env:1',
      EDGEPLANE_MAILBOX: 'env-mb',
      EDGEPLANE_TOKEN_FILE: '/env',
      EDGEPLANE_POLL_INTERVAL: '2.5',
      EDGEPLANE_CENTER_TIMEOUT: '7',
      EDGEPLANE_STATE: '/state',
      EDGEPLANE_CENTER_CA: '/ca.pem',
      EDGE_BUILTIN_NAMESPACES: 'kube-system, default',
    }
    const r = parseAgentArgs(
      ['--mailbox=flag-mb', '--once', '--kubeconfig', '/k', '--context', 'c'],
      env
    )
    expect(r).toEqual({
      kind: 'run',
      config: {
        centerUrl: 'http://env:1',
        mailbox: 'flag-mb',
        tokenFile: '/env',
        kubeconfig: '/k',
        context: 'c',
        pollIntervalMs: 2500,
        centerTimeoutMs: 7000,
        heartbeatMs: 60_000,
        holdSeconds: 300,
        stateDir: '/state',
        builtinNamespaces: ['kube-system', 'default'],
        once: true,
        centerCa: '/ca.pem',
        health: { port: 9464 },
      },
    })
    const supervised = parseAgentArgs([...required, '--parent-pid', '42'], {})
    expect(supervised.kind === 'run' && supervised.config.parentPid).toBe(42)
    const none = parseAgentArgs([...required, '--builtin-namespaces', ''], {})
    expect(none.kind === 'run' && none.config.builtinNamespaces).toEqual([])
  })

  it('reads the center timeout in seconds, the flag over the environment', () => {
    const timeout = (argv: string[], env: Record<string, string> = {}) => {
      const r = parseAgentArgs([...required, ...argv], env)
      return r.kind === 'run' ? r.config.centerTimeoutMs : r.kind
    }
    expect(timeout(['--center-timeout', '5'])).toBe(5000)
    expect(timeout(['--center-timeout=1.5'], { EDGEPLANE_CENTER_TIMEOUT: '9' })).toBe(1500)
    expect(timeout([], { EDGEPLANE_CENTER_TIMEOUT: '120' })).toBe(120_000)
    expect(timeout(['--center-timeout', '1'])).toBe(1000)
  })

  it('reads the heartbeat interval in seconds, the flag over the environment', () => {
    const beat = (argv: string[], env: Record<string, string> = {}) => {
      const r = parseAgentArgs([...required, ...argv], env)
      return r.kind === 'run' ? r.config.heartbeatMs : r.kind
    }
    expect(beat(['--heartbeat-interval', '10'])).toBe(10_000)
    expect(beat(['--heartbeat-interval=3.333'], { EDGEPLANE_HEARTBEAT_INTERVAL: '9' })).toBe(3333)
    expect(beat([], { EDGEPLANE_HEARTBEAT_INTERVAL: '1' })).toBe(1000)
  })

  it('reads the hold in whole seconds from 0 to 370, the flag over the environment', () => {
    const hold = (argv: string[], env: Record<string, string> = {}) => {
      const r = parseAgentArgs([...required, ...argv], env)
      return r.kind === 'run' ? r.config.holdSeconds : r.kind === 'error' ? r.message : 'help'
    }
    expect(hold(['--hold-seconds', '0'])).toBe(0)
    expect(hold(['--hold-seconds=60'], { EDGEPLANE_HOLD_SECONDS: '9' })).toBe(60)
    expect(hold([], { EDGEPLANE_HOLD_SECONDS: '370' })).toBe(370)
    for (const bad of ['371', '-1', '1.5', 'long', ''])
      expect(hold([`--hold-seconds=${bad}`])).toMatch(/--hold-seconds must be|needs a value/)
  })

  it.each([
    [[], /missing --center/],
    [['--center', 'ftp://x', '--mailbox', 'm', '--token-file', 't'], /http\(s\) URL/],
    [['--center', 'http://x', '--token-file', 't'], /missing --mailbox/],
    [['--center', 'http://x', '--mailbox', 'Bad_Name', '--token-file', 't'], /not a valid name/],
    [['--center', 'http://x', '--mailbox', 'm'], /missing --token-file/],
    [[...required, '--poll-interval', '0'], /positive number/],
    [[...required, '--poll-interval', 'soon'], /positive number/],
    [[...required, '--builtin-namespaces', 'Not_A_Name'], /not a valid namespace name/],
    [[...required, '--state-dir'], /needs a value/],
    [[...required, '--frobnicate'], /unknown argument/],
    [[...required, '--parent-pid', '0'], /positive integer/],
    [[...required, '--center-timeout', '0'], /--center-timeout must be .* 1 to 120/],
    [[...required, '--center-timeout', '0.5'], /--center-timeout must be/],
    [[...required, '--center-timeout', '121'], /--center-timeout must be/],
    [[...required, '--center-timeout', '5s'], /--center-timeout must be/],
    [[...required, '--center-timeout', '-5'], /--center-timeout must be/],
    [[...required, '--center-timeout'], /needs a value/],
    [[...required, '--heartbeat-interval', '0.5'], /--heartbeat-interval must be .* 1 to 60/],
    [[...required, '--heartbeat-interval', '61'], /--heartbeat-interval must be/],
    [[...required, '--heartbeat-interval', 'often'], /--heartbeat-interval must be/],
  ])('rejects %j', (argv, message) => {
    const r = parseAgentArgs(argv, {})
    expect(r.kind).toBe('error')
    expect(r.kind === 'error' && r.message).toMatch(message)
  })

  it('answers --help and -h', () => {
    expect(parseAgentArgs(['--frobnicate', '-h'], {})).toEqual({ kind: 'help' })
    expect(parseAgentArgs(['--help'], {})).toEqual({ kind: 'help' })
  })
})
