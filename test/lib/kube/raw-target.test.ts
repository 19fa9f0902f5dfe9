import { describe, expect, it } from 'vitest'
import { checkRawRequest, MAX_REQUEST_TARGET, targetOfUrl } from '../../../lib/kube/raw-target.ts'

const CMS = '/api/v1/namespaces/x/configmaps'

describe('checkRawRequest', () => {
  it.each([
    `${CMS}/%2e%2e`,
    `${CMS}/%2E%2E`,
    `${CMS}/.%2e`,
    `${CMS}/%2e.`,
    `${CMS}/..`,
    `${CMS}/.`,
    `${CMS}/%2e`,
    `${CMS}/%2e%2e?dryRun=All`,
    `${CMS}/c/..`,
    '/clusters/%2e%2e/api/v1/namespaces',
    '/clusters/../api/v1/namespaces',
    '/api/v1/namespaces/./configmaps',
    '/api/v1/namespaces/x/configmaps/../../namespaces/x',
  ])('refuses the dot segment in %s with 400', (target) => {
    const err = checkRawRequest('DELETE', target)
    expect(err?.toStatus()).toMatchObject({ code: 400, reason: 'BadRequest', kind: 'Status' })
    expect(err?.message).toMatch(/may not be '\.\.?'$/)
  })

  it("names the dots it refuses, as kube's wording does", () => {
    expect(checkRawRequest('GET', `${CMS}/%2e%2E`)?.message).toBe(
      `invalid path segment "%2e%2E": may not be '..'`
    )
    expect(checkRawRequest('GET', `${CMS}/.`)?.message).toBe(
      `invalid path segment ".": may not be '.'`
    )
  })

  it.each([
    [`${CMS}/%zz`, 'not valid percent-encoding'],
    [`${CMS}/a%2`, 'not valid percent-encoding'],
    [`${CMS}/%ff`, 'not valid percent-encoding'],
    [`${CMS}/a\\..\\..`, 'raw "\\"'],
    [`${CMS}/a#/../..`, 'must be percent-encoded: "#"'],
    [`${CMS}/a b`, 'must be percent-encoded: " "'],
    [`${CMS}/a\u0001`, 'must be percent-encoded'],
    ['api/v1/namespaces', 'must be an absolute path'],
    ['http://evil/api/v1/namespaces', 'must be an absolute path'],
    ['*', 'must be an absolute path'],
  ])('refuses %s with 400', (target, message) => {
    const err = checkRawRequest('GET', target)
    expect(err?.code).toBe(400)
    expect(err?.message).toContain(message)
  })

  it.each([
    `${CMS}/c`,
    `${CMS}/a..b`,
    `${CMS}/...`,
    `${CMS}/.hidden`,
    `${CMS}?labelSelector=a%20in%20(x,y)&fieldSelector=metadata.name%3D..`,
    `${CMS}?x=%zz&y=..`,
    '/clusters/root:espw/api/v1/namespaces',
    '//api//v1',
    '/healthz',
    '/',
  ])('lets %s through', (target) => {
    expect(checkRawRequest('GET', target)).toBeUndefined()
  })

  it('answers a target over the limit with 414 and one at the limit not', () => {
    const long = `${CMS}?x=${'a'.repeat(MAX_REQUEST_TARGET)}`
    expect(checkRawRequest('GET', long)?.toStatus()).toMatchObject({
      code: 414,
      reason: 'RequestURITooLong',
    })
    expect(checkRawRequest('GET', long.slice(0, MAX_REQUEST_TARGET))).toBeUndefined()
  })

  it.each(['FOO', 'TRACE', 'CONNECT', 'get', ''])('answers the method %j with 405', (method) => {
    expect(checkRawRequest(method, CMS)?.toStatus()).toMatchObject({
      code: 405,
      reason: 'MethodNotAllowed',
    })
  })

  it.each(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])('serves %s', (method) => {
    expect(checkRawRequest(method, CMS)).toBeUndefined()
  })
})

describe('targetOfUrl', () => {
  it.each([
    ['http://h:1/a/%2e%2e/b?c=d', '/a/%2e%2e/b?c=d'],
    ['https://h/', '/'],
    ['https://h', '/'],
    ['https://h?x=1', '/?x=1'],
    ['/already/a/target', '/already/a/target'],
  ])('%s -> %s', (url, target) => {
    expect(targetOfUrl(url)).toBe(target)
  })
})
