/**
 * Errors the patch engines raise besides the generic ones of `lib/errors.ts`: 422 Invalid for a
 * well-formed patch that cannot be applied to this object (a JSON patch `test` that fails, a path
 * that does not exist), the way kube reports JSON patch failures, without naming a resource.
 */
import { ApiError } from '../errors.ts'

/** 422 Invalid with a free-form message, for patches that are well formed but do not apply. */
export const unprocessable = (message: string) => new ApiError(422, 'Invalid', message)
