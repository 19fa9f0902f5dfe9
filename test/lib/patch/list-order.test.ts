/**
 * Tests for the order of merged lists in strategic merge patch: patch order for patched items,
 * live order for server-only ones, interleaved by live position.
 */
import { describe, expect, it } from 'vitest'
import type { JsonValue } from '../../../lib/kube/types.ts'
import { normalizeListOrder } from '../../../lib/patch/list-order.ts'

const id = (v: JsonValue) => (typeof v === 'string' ? v : undefined)

describe('normalizeListOrder', () => {
  it.for<
    [name: string, merged: JsonValue[], patch: JsonValue[], live: JsonValue[], want: JsonValue[]]
  >([
    ['patch order wins', ['a', 'b'], ['b', 'a'], ['a', 'b'], ['b', 'a']],
    [
      'server-only item first when it was first',
      ['x', 'a', 'b'],
      ['b', 'a'],
      ['x', 'a', 'b'],
      ['x', 'b', 'a'],
    ],
    [
      'server-only item after patched items it followed',
      ['a', 'b', 'x'],
      ['b', 'a'],
      ['a', 'b', 'x'],
      ['b', 'a', 'x'],
    ],
    [
      'new patch items come before server-only ones',
      ['a', 's', 'n'],
      ['a', 'n'],
      ['a', 's'],
      ['a', 'n', 's'],
    ],
    [
      'items without identity stay server-only, at the end',
      ['a', 1, 'b'],
      ['b', 'a'],
      ['a', 1, 'b'],
      ['b', 'a', 1],
    ],
  ])('%s', ([_name, merged, patchOrder, liveOrder, want]) => {
    expect(normalizeListOrder(merged, patchOrder.map(id), liveOrder.map(id), id)).toEqual(want)
  })
})
