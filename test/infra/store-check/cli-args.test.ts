/** The arguments of `npm run store-check` (infra/store-check/cli-args.ts). */
import { describe, expect, it } from 'vitest'
import { parseStoreCheckArgs } from '../../../infra/store-check/cli-args.ts'

describe('parseStoreCheckArgs', () => {
  it('takes the table from the environment, and leaves the data folder to the discovery', () => {
    expect(parseStoreCheckArgs([], { EDGEPLANE_DATA: 'd', TABLE_NAME: 'tbl' }, '/w')).toEqual({
      kind: 'check',
      dataDir: undefined,
      table: 'tbl',
      json: false,
    })
    expect(parseStoreCheckArgs(['--data', 'rel'], {}, '/w')).toMatchObject({
      dataDir: '/w/rel',
      table: 'edgeplane',
    })
  })

  it('lets flags override, and asks for JSON', () => {
    const args = ['--data', '/x', '--table', 'other', '--json']
    expect(parseStoreCheckArgs(args, { EDGEPLANE_DATA: 'd' }, '/w')).toEqual({
      kind: 'check',
      dataDir: '/x',
      table: 'other',
      json: true,
    })
  })

  it('answers help, and refuses unknown or incomplete arguments and bad tables', () => {
    expect(parseStoreCheckArgs(['--help'], {}, '/w')).toEqual({ kind: 'help' })
    expect(parseStoreCheckArgs(['--what'], {}, '/w')).toMatchObject({ kind: 'error' })
    expect(parseStoreCheckArgs(['--data'], {}, '/w')).toMatchObject({
      kind: 'error',
      message: '--data needs a value',
    })
    expect(parseStoreCheckArgs(['--table', 'x'], {}, '/w')).toMatchObject({ kind: 'error' })
  })
})
