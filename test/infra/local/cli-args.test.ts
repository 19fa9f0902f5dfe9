import { describe, expect, it } from 'vitest'
import { parseArgs, parseReadyLine, readyLine } from '../../../infra/local/cli-args.ts'

describe('command line', () => {
  it.each([
    [[], { kind: 'run' }],
    [['--'], { kind: 'run' }],
    [['--help'], { kind: 'help' }],
    [['--', '-h'], { kind: 'help' }],
    [['--port', '1'], { kind: 'error', message: 'unknown argument: --port 1' }],
  ])('%j → %j', (argv, want) => {
    expect(parseArgs(argv)).toEqual(want)
  })

  it('prints a ready line that tools can parse back', () => {
    const line = readyLine('http://127.0.0.1:8787', '/home/me/my data/kubeconfig')
    expect(line).not.toContain('\n')
    expect(line).toContain('dashboard: http://127.0.0.1:8787/ui/')
    expect(parseReadyLine(`${line}\n`)).toEqual({
      url: 'http://127.0.0.1:8787',
      dashboard: 'http://127.0.0.1:8787/ui/',
      kubeconfig: '/home/me/my data/kubeconfig',
    })
    expect(parseReadyLine('{"level":"info","msg":"ready"}')).toBeUndefined()
  })
})
