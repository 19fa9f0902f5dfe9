/**
 * The /proc readers (infra/local/proc-read.ts): a child's state, parent and group, its command
 * line and one variable of its environment; a process that does not exist reads as nothing.
 */
import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { commandLine, environHas, procStat } from '../../../infra/local/proc-read.ts'

describe('/proc readers', () => {
  it("reads a child's stat, command line and environment", async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'tag-arg'], {
      stdio: 'ignore',
      detached: true,
      env: { EP_TEST_MARK: 'on' },
    })
    const pid = child.pid ?? 0
    try {
      await new Promise((r) => child.once('spawn', r))
      await new Promise((r) => setTimeout(r, 100))
      expect(procStat(pid)).toMatchObject({ pid, ppid: process.pid, pgrp: pid })
      expect(procStat(pid)?.state).not.toBe('Z')
      expect(commandLine(pid)).toContain('tag-arg')
      expect(environHas(pid, 'EP_TEST_MARK', 'on')).toBe(true)
      expect(environHas(pid, 'EP_TEST_MARK', 'o')).toBe(false)
    } finally {
      child.kill('SIGKILL')
    }
  })

  it('reads nothing of a process that does not exist', () => {
    const gone = 2 ** 22 - 3
    expect(procStat(gone)).toBeUndefined()
    expect(commandLine(gone)).toBe('')
    expect(environHas(gone, 'PATH', '/bin')).toBe(false)
  })
})
