/**
 * The token command line (infra/token/cli-args.ts): durations, commands and their flags, errors,
 * and relative file paths taken from where the command was typed.
 */
import { describe, expect, it } from 'vitest'
import { parseTokenArgs } from '../../../infra/token/cli-args.ts'
import { formatSeconds, parseDuration } from '../../../infra/token/duration.ts'

const run = (argv: string[], env: Record<string, string> = {}) => {
  const r = parseTokenArgs(argv, env, '/home/u')
  if (r.kind !== 'run') throw new Error(JSON.stringify(r))
  return r.command
}
const error = (argv: string[]) => {
  const r = parseTokenArgs(argv, {})
  expect(r.kind).toBe('error')
  return r.kind === 'error' ? r.message : ''
}

describe('parseDuration', () => {
  it('reads Go-style durations with days, in whole seconds', () => {
    expect(parseDuration('720h')).toBe(2_592_000)
    expect(parseDuration('30d')).toBe(2_592_000)
    expect(parseDuration('1h30m')).toBe(5400)
    expect(parseDuration('90s')).toBe(90)
    for (const bad of ['', '10', 'h', '1.5h', '-1h', '0s', '1w', '1h 2m', `${'9'.repeat(20)}d`])
      expect(typeof parseDuration(bad), bad).toBe('string')
    expect(formatSeconds(2_592_000)).toBe('30d')
    expect(formatSeconds(5400)).toBe('90m')
  })
})

describe('parseTokenArgs', () => {
  it('asks for help without a command or with --help', () => {
    expect(parseTokenArgs([], {}).kind).toBe('help')
    expect(parseTokenArgs(['issue', '--help'], {}).kind).toBe('help')
    expect(parseTokenArgs(['--', 'list', '-h'], {}).kind).toBe('help')
  })

  it('reads issue with lists, a duration and the connection flags', () => {
    const cmd = run(
      [
        '--',
        'issue',
        '--name',
        'alice',
        '--space',
        'root:team-a, root:org:*',
        '--group=devs,ops',
        '--expires',
        '720h',
        '--hub',
        'https://hub.example/',
        '--kubeconfig-out',
        'alice.kubeconfig',
      ],
      { EDGEPLANE_TOKEN_FILE: '/secret/admin' }
    )
    expect(cmd).toEqual({
      kind: 'issue',
      issue: {
        name: 'alice',
        spaces: ['root:team-a', 'root:org:*'],
        groups: ['devs', 'ops'],
        admin: false,
        expirationSeconds: 2_592_000,
        kubeconfigOut: '/home/u/alice.kubeconfig',
      },
      connection: { hubUrl: 'https://hub.example', tokenFile: '/secret/admin' },
    })
  })

  it('takes a relative path from where npm run was typed (INIT_CWD), not the package root', () => {
    const env = { INIT_CWD: '/home/u/work' }
    const cmd = run(
      [
        'issue',
        '--name',
        'b',
        '--space',
        'root:b',
        '--kubeconfig-out',
        'b.kc',
        '--ca-file',
        '../ca.pem',
      ],
      env
    )
    expect(cmd).toMatchObject({
      issue: { kubeconfigOut: '/home/u/work/b.kc' },
      connection: { caFile: '/home/u/ca.pem' },
    })
  })

  it('reads admin issues, list and revoke with names', () => {
    const admin = run(['issue', '--name', 'ops', '--admin', '--user', 'ops-team'])
    expect(admin).toMatchObject({ issue: { admin: true, spaces: [], user: 'ops-team' } })
    expect(run(['list', '--kubeconfig', 'k', '--context', 'root'])).toEqual({
      kind: 'list',
      connection: { kubeconfig: '/home/u/k', context: 'root' },
    })
    expect(run(['revoke', 'a', 'b', '--hub', 'http://h'])).toEqual({
      kind: 'revoke',
      names: ['a', 'b'],
      connection: { hubUrl: 'http://h' },
    })
  })

  it('refuses what it cannot use, saying why', () => {
    expect(error(['mint'])).toContain('unknown command')
    expect(error(['issue', '--space', 'root'])).toContain('--name')
    expect(error(['issue', '--name', 'a'])).toContain('--space')
    expect(error(['issue', '--name', 'a', '--admin', '--space', 'root'])).toContain('--admin')
    expect(error(['issue', '--name', 'a', '--space', 'root', '--expires', '3'])).toContain(
      '--expires'
    )
    expect(error(['list', '--hub', 'ftp://x'])).toContain('--hub')
    expect(error(['list', '--name', 'a'])).toContain('unknown argument')
    expect(error(['revoke'])).toContain('NAME')
    expect(error(['revoke', 'a', '--admin'])).toContain('unknown argument')
  })
})
