/**
 * The local stack outlives requests cut at its store: requests to dynalite that stop mid-body
 * (what a killed workerd or wrangler leaves, here a raw socket sending a head and part of a body,
 * then destroyed) end only themselves — `npm start` keeps serving kubectl, with the same pid,
 * and what was stored before is still there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendHalfRequest } from '../helpers/half-sent.ts'
import { ok } from './helpers/kubectl.ts'
import { configMap } from './helpers/manifests.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'

let stack: SharedStack

beforeAll(async () => {
  stack = await sharedStack()
})
afterAll(async () => {
  await stack?.close()
})

describe('a request cut at the local store', () => {
  it('leaves the stack serving', async () => {
    ok(await stack.kubectl(['create', '-f', '-'], { input: configMap('default', 'before-cut') }))
    const { pid, dynalite } = stack.info()
    for (let i = 0; i < 3; i++) await sendHalfRequest(dynalite.port)
    const got = ok(await stack.kubectl(['get', 'cm', 'before-cut', '-n', 'default', '-o', 'name']))
    expect(got.trim()).toBe('configmap/before-cut')
    ok(await stack.kubectl(['create', '-f', '-'], { input: configMap('default', 'after-cut') }))
    expect(() => process.kill(pid, 0)).not.toThrow()
  })
})
