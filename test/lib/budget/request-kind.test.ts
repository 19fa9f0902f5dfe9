/** Request kinds come from a fixed set, whatever the path holds. */
import { describe, expect, it } from 'vitest'
import { requestKind } from '../../../lib/budget/request-kind.ts'

describe('requestKind', () => {
  it.each([
    ['POST', 'https://hub/hooks/translate', 'hook'],
    ['POST', 'https://hub/hooks/%ZZ%2F..', 'hook'],
    ['GET', 'https://hub/edge/v1/mailboxes/m-1/desired', 'edge-poll'],
    ['POST', 'https://hub/edge/v1/mailboxes/m-1/reports', 'edge'],
    ['PUT', 'https://hub/edge/v1/mailboxes/m-1/desired', 'edge'],
    ['GET', 'https://hub/api/v1/namespaces?watch=true', 'api'],
    ['GET', 'not a url', 'api'],
  ])('%s %s is %s', (method, url, kind) => {
    expect(requestKind(method, url)).toBe(kind)
  })
})
