import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { groupAlive, groupMembers, stopGroup } from '../../../infra/local/process-group.ts'

describe('process groups', () => {
  it('lists the living members of a detached group and stops them all', async () => {
    const child = spawn('sh', ['-c', 'sleep 30 & sleep 30'], { detached: true, stdio: 'ignore' })
    const pgid = child.pid ?? 0
    await new Promise((r) => setTimeout(r, 200))
    expect(groupMembers(pgid)?.length).toBeGreaterThanOrEqual(2)
    expect(groupAlive(pgid)).toBe(true)
    await stopGroup(pgid, 2000)
    expect(groupAlive(pgid)).toBe(false)
    expect(groupMembers(pgid)).toEqual([])
  })

  it('treats an unknown group as gone', async () => {
    await expect(stopGroup(2 ** 22 - 3, 100)).resolves.toBeUndefined()
    expect(groupAlive(2 ** 22 - 3)).toBe(false)
  })
})
