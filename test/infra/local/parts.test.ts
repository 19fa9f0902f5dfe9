import { describe, expect, it } from 'vitest'
import { type Part, stopAll } from '../../../infra/local/parts.ts'
import { createLogger } from '../../../lib/log.ts'

describe('stopAll', () => {
  it('stops the parts last first, and a part that fails to stop does not keep the others up', async () => {
    const stopped: string[] = []
    const lines: string[] = []
    const log = createLogger({ sink: (line) => lines.push(line) })
    const part = (name: string, fails = false): Part => ({
      name,
      stop: async () => {
        if (fails) throw new Error(`${name} would not stop`)
        stopped.push(name)
      },
    })
    await stopAll([part('lock'), part('dynalite', true), part('hub')], log)
    expect(stopped).toEqual(['hub', 'lock'])
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; part: string; level: string })
    expect(logged.map(({ msg, part, level }) => [msg, part, level])).toEqual([
      ['stopped', 'hub', 'info'],
      ['stopping failed', 'dynalite', 'error'],
      ['stopped', 'lock', 'info'],
    ])
  })
})
