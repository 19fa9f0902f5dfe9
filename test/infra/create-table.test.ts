import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCreateTable, USAGE } from '../../infra/create-table.ts'
import { type Dynalite, startDynalite } from '../helpers/dynalite.ts'

let db: Dynalite
beforeAll(async () => {
  db = await startDynalite()
})
afterAll(() => db.close())

function capture() {
  const lines: string[] = []
  return { lines, print: (line: string) => lines.push(line) }
}

describe('create-table CLI', () => {
  it('creates the table once and reports it existing afterwards', async () => {
    const first = capture()
    expect(
      await runCreateTable(['--endpoint', db.endpoint, '--table', 'cli-test'], first.print)
    ).toBe(0)
    expect(first.lines).toEqual(['table cli-test: created, TTL unsupported'])
    const second = capture()
    expect(
      await runCreateTable(['--endpoint', db.endpoint, '--table', 'cli-test'], second.print)
    ).toBe(0)
    expect(second.lines).toEqual(['table cli-test: already exists, TTL unsupported'])
  })

  it('prints usage for --help and for unknown options', async () => {
    const help = capture()
    expect(await runCreateTable(['--help'], help.print)).toBe(0)
    expect(help.lines).toEqual([USAGE])
    const bad = capture()
    expect(await runCreateTable(['--bogus'], bad.print)).toBe(2)
    expect(bad.lines[0]).toContain('--bogus')
    expect(bad.lines[0]).toContain('Usage: create-table')
  })
})
