/** The mailbox's space path, built and read back by the mailbox concept's home. */
import { describe, expect, it } from 'vitest'
import { mailboxName, mailboxOfSpacePath, mailboxSpacePath } from '../../../lib/reconcile/keys.ts'

const MB = mailboxName('inv1', '0f0e0d0c-0b0a-4098-8706-050403020100')

describe('mailboxSpacePath and mailboxOfSpacePath', () => {
  it('put a mailbox under root:espw and read it back', () => {
    expect(mailboxSpacePath(MB)).toBe(`root:espw:${MB}`)
    expect(mailboxOfSpacePath(mailboxSpacePath(MB))).toBe(MB)
  })

  it.each([
    ['root:espw', undefined],
    ['root:espw:', undefined],
    ['root:espw:not-a-mailbox', undefined],
    [`root:other:${MB}`, undefined],
    [`root:espw:${MB}:inner`, undefined],
    [`root:espwx:${MB}`, undefined],
  ])('%s names no mailbox', (path, want) => {
    expect(mailboxOfSpacePath(path)).toBe(want)
  })
})
