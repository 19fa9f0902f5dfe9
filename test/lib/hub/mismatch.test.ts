/**
 * The one wording of kube's 400s for a body that names another object than the request
 * (lib/hub/mismatch.ts), as every verb answers them.
 */
import { describe, expect, it } from 'vitest'
import {
  apiVersionMismatch,
  kindMismatch,
  nameMismatch,
  namespaceMismatch,
} from '../../../lib/hub/mismatch.ts'

describe('mismatch errors', () => {
  it("are 400 BadRequest in kube-apiserver's words", () => {
    expect([nameMismatch('b', 'a').code, nameMismatch('b', 'a').reason]).toEqual([
      400,
      'BadRequest',
    ])
    expect(nameMismatch('b', 'a').message).toBe(
      'the name of the object (b) does not match the name on the URL (a)'
    )
    expect(kindMismatch('Secret', 'ConfigMap').message).toBe(
      'the kind in the data (Secret) does not match the expected kind (ConfigMap)'
    )
    expect(
      kindMismatch('"Secret"', 'ConfigMap', 'the kind of an object cannot be changed').message
    ).toBe(
      'the kind in the data ("Secret") does not match the expected kind (ConfigMap): the kind of an object cannot be changed'
    )
    expect(apiVersionMismatch('v2', 'v1').message).toBe(
      'the API version in the data (v2) does not match the expected API version (v1)'
    )
    expect(namespaceMismatch().message).toBe(
      'the namespace of the provided object does not match the namespace sent on the request'
    )
  })
})
