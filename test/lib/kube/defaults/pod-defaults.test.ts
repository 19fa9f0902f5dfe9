/** kube's imagePullPolicy rule: `:latest` or no tag is pulled every time, a digest pins. */
import { describe, expect, it } from 'vitest'
import { imagePullPolicyFor } from '../../../../lib/kube/defaults/pod-defaults.ts'

describe('imagePullPolicyFor', () => {
  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.27', 'IfNotPresent'],
    ['registry.example:5000/team/app', 'Always'],
    ['registry.example:5000/team/app:v1', 'IfNotPresent'],
    ['nginx@sha256:0123abcd', 'IfNotPresent'],
  ])('of %s is %s', (image, policy) => {
    expect(imagePullPolicyFor(image)).toBe(policy)
  })
})
