import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { DesiredEntry, DesiredState } from '../../../lib/edge/protocol.ts'
import {
  type DesiredCopy,
  loadDesired,
  mergeDesired,
  saveDesired,
} from '../../../lib/edge-agent/desired-store.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

const entry = (name: string, hash: string, rv: number): DesiredEntry => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'ns',
  name,
  hash,
  generation: 1,
  rv,
})
const answer = (version: number, entries: DesiredEntry[], bodies: DesiredState['bodies']) =>
  ({ kind: 'DesiredState', mailbox: 'mb', version, full: false, entries, bodies }) as DesiredState

const previous: DesiredCopy = {
  mailbox: 'mb',
  version: 3,
  entries: [entry('a', 'ha', 1), entry('b', 'hb', 2)],
  bodies: { ha: { data: 'a' }, hb: { data: 'b' } },
}

describe('mergeDesired', () => {
  it('keeps unchanged bodies, takes new ones, drops unreferenced ones', () => {
    const r = mergeDesired(
      previous,
      answer(5, [entry('a', 'ha', 1), entry('c', 'hc', 5)], { hc: { data: 'c' } })
    )
    expect(r).toEqual({
      kind: 'ok',
      copy: {
        mailbox: 'mb',
        version: 5,
        entries: [entry('a', 'ha', 1), entry('c', 'hc', 5)],
        bodies: { ha: { data: 'a' }, hc: { data: 'c' } },
      },
    })
  })
  it('is incomplete when a body is neither sent nor held', () => {
    expect(mergeDesired(previous, answer(6, [entry('d', 'hd', 6)], {}))).toEqual({
      kind: 'incomplete',
      missing: ['hd'],
    })
    expect(mergeDesired(undefined, answer(6, [entry('a', 'ha', 1)], {}))).toMatchObject({
      kind: 'incomplete',
    })
  })
  it('needs no body for a tombstone, and keeps one it already holds', () => {
    const gone = { ...entry('d', 'hd', 7), removing: true }
    const held = { ...entry('b', 'hb', 7), removing: true }
    const r = mergeDesired(previous, answer(7, [gone, held], {}))
    expect(r).toEqual({
      kind: 'ok',
      copy: { mailbox: 'mb', version: 7, entries: [gone, held], bodies: { hb: { data: 'b' } } },
    })
  })
})

describe('loadDesired / saveDesired', () => {
  it('round-trips atomically and rejects corrupt or foreign copies', async () => {
    const dir = await tempDir('desired-')
    const path = join(dir, 'desired.json')
    expect(await loadDesired(path, 'mb')).toEqual({})
    await saveDesired(path, previous)
    expect(await readdir(dir)).toEqual(['desired.json'])
    expect(await loadDesired(path, 'mb')).toEqual({ copy: previous })
    expect((await loadDesired(path, 'other')).problem).toMatch(/mailbox mb/)
    await writeFile(path, '{"version": "x"')
    expect((await loadDesired(path, 'mb')).problem).toMatch(/unreadable/)
  })
})
