/**
 * The 400s kube answers when a body names another object than the request addresses (its
 * decoding and checkName steps): another kind, apiVersion, name or namespace. One wording for
 * every verb (create, update, patch, apply, scale); each caller renders the values it was given.
 */
import { badRequest } from '../errors.ts'

export const nameMismatch = (given: string, onUrl: string) =>
  badRequest(`the name of the object (${given}) does not match the name on the URL (${onUrl})`)

/** `why` is added after a colon (a patch: "the kind of an object cannot be changed"). */
export const kindMismatch = (given: string, expected: string, why?: string) =>
  badRequest(
    `the kind in the data (${given}) does not match the expected kind (${expected})${why ? `: ${why}` : ''}`
  )

export const apiVersionMismatch = (given: string, expected: string) =>
  badRequest(
    `the API version in the data (${given}) does not match the expected API version (${expected})`
  )

export const namespaceMismatch = () =>
  badRequest(
    'the namespace of the provided object does not match the namespace sent on the request'
  )
