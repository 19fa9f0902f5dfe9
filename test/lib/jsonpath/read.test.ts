/** Reading values at a JSONPath of the Customizer subset, table-driven. */
import { describe, expect, it } from 'vitest'
import { parseJsonPath } from '../../../lib/jsonpath/parse.ts'
import { readJsonPath } from '../../../lib/jsonpath/read.ts'

const DOC = {
  spec: {
    replicas: 3,
    containers: [
      { name: 'a', image: 'x' },
      { name: 'b', image: 'y' },
    ],
  },
  status: { conditions: [{ type: 'Ready', status: 'True' }], 'a.b': 1 },
}

describe('readJsonPath', () => {
  it.each([
    ['$.spec.replicas', [3]],
    ['$.spec.containers[1].image', ['y']],
    ['$.spec.containers[-1].name', ['b']],
    ['$.spec.containers[*].image', ['x', 'y']],
    ['$.spec.containers[0:1].name', ['a']],
    ["$.status['a.b']", [1]],
    ['$..image', ['x', 'y']],
    ['$.spec.missing', []],
    ['$.spec.replicas.deeper', []],
    ['$', [DOC]],
  ])('%s', (path, want) => {
    expect(readJsonPath(parseJsonPath(path), DOC as never)).toEqual(want)
  })
})
