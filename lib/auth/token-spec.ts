/**
 * The value rules of a Token's spec (lib/apis/tokens.ts), checked when one is issued, with the
 * defaults filled in. `user`: 1-253 printable characters without spaces, not in the reserved
 * `system:` and `edge:` namespaces of names (default: the Token's name). `type`: `user` (default)
 * or `admin`. `spaces`: for a user token 1-64 space paths (`root`, `root:team-a`) or subtrees
 * (`root:team-a:*`, every descendant, not the space itself), duplicates dropped; an admin token
 * reaches every space and must list none. `groups`: up to 32 such names, not `system:` ones.
 * `expirationSeconds`: an integer from 600 (10 minutes) to 31536000 (1 year), default 2592000
 * (30 days): issued tokens always expire; only the bootstrap admin token (ADMIN_TOKEN, the local
 * admin-token file) does not. Every problem is a cause naming its field; the caller turns them
 * into a 422.
 */
import {
  DEFAULT_EXPIRATION_SECONDS,
  MAX_EXPIRATION_SECONDS,
  MIN_EXPIRATION_SECONDS,
  TOKEN_TYPES,
  type TokenSpec,
} from '../apis/tokens.ts'
import type { StatusCause } from '../errors.ts'
import { isValidSpacePath } from '../hub/spaces.ts'

export const MAX_SPACES = 64
export const MAX_GROUPS = 32
const MAX_NAME = 253
const RESERVED_USER_PREFIXES = ['system:', 'edge:']

/** Whether `scope` is a space path or a `path:*` subtree (lib/auth/tokens.ts reads them). */
export function isValidScope(scope: string): boolean {
  if (scope.endsWith(':*')) return isValidSpacePath(scope.slice(0, -2))
  return isValidSpacePath(scope)
}

/** Why `value` cannot be a user or group name, or undefined when it can. */
function nameProblem(value: string, reserved: readonly string[]): string | undefined {
  if (value.length === 0) return 'must not be empty'
  if (value.length > MAX_NAME) return `must be no more than ${MAX_NAME} characters`
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return 'must not contain spaces or control characters'
  const prefix = reserved.find((p) => value.startsWith(p))
  if (prefix) return `must not start with "${prefix}" (reserved)`
  return undefined
}

function stringList(
  value: unknown,
  field: string,
  max: number,
  causes: StatusCause[]
): string[] | undefined {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) {
    causes.push({ reason: 'FieldValueInvalid', field, message: 'must be a list of strings' })
    return undefined
  }
  if (value.length > max) {
    causes.push({ reason: 'TooMany', field, message: `must have at most ${max} items` })
    return undefined
  }
  const out: string[] = []
  value.forEach((v, i) => {
    if (typeof v === 'string') out.push(v)
    else
      causes.push({
        reason: 'FieldValueInvalid',
        field: `${field}[${i}]`,
        message: 'must be a string',
      })
  })
  return out
}

function checkSpaces(list: string[], type: string, causes: StatusCause[]): string[] {
  const field = 'spec.spaces'
  if (type === 'admin') {
    if (list.length > 0)
      causes.push({
        reason: 'FieldValueForbidden',
        field,
        message: 'an admin token reaches every space; list no spaces',
      })
    return []
  }
  if (list.length === 0)
    causes.push({
      reason: 'FieldValueRequired',
      field,
      message:
        'a user token needs at least one space path (root:team-a) or subtree (root:team-a:*)',
    })
  list.forEach((s, i) => {
    if (!isValidScope(s))
      causes.push({
        reason: 'FieldValueInvalid',
        field: `${field}[${i}]`,
        message: `"${s.slice(0, 100)}" is not a space path (root or root:<name>[:<name>...], lowercase DNS labels) nor a subtree (<path>:*)`,
      })
  })
  return [...new Set(list)]
}

function checkExpiration(value: unknown, causes: StatusCause[]): number {
  if (value === undefined || value === null) return DEFAULT_EXPIRATION_SECONDS
  const ok =
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= MIN_EXPIRATION_SECONDS &&
    value <= MAX_EXPIRATION_SECONDS
  if (!ok)
    causes.push({
      reason: 'FieldValueInvalid',
      field: 'spec.expirationSeconds',
      message: `must be an integer from ${MIN_EXPIRATION_SECONDS} (10 minutes) to ${MAX_EXPIRATION_SECONDS} (1 year); issued tokens always expire`,
    })
  return ok ? value : DEFAULT_EXPIRATION_SECONDS
}

/** The spec with defaults, or the causes that make it invalid. */
export function checkTokenSpec(
  raw: unknown,
  tokenName: string
): { spec: TokenSpec; causes: [] } | { spec?: undefined; causes: StatusCause[] } {
  const causes: StatusCause[] = []
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw)))
    return {
      causes: [{ reason: 'FieldValueInvalid', field: 'spec', message: 'must be an object' }],
    }
  const s = (raw ?? {}) as Record<string, unknown>
  const type = s.type ?? 'user'
  if (typeof type !== 'string' || !(TOKEN_TYPES as readonly string[]).includes(type))
    causes.push({
      reason: 'FieldValueNotSupported',
      field: 'spec.type',
      message: `supported values: ${TOKEN_TYPES.map((t) => `"${t}"`).join(', ')}`,
    })
  const user = s.user ?? tokenName
  if (typeof user !== 'string')
    causes.push({ reason: 'FieldValueInvalid', field: 'spec.user', message: 'must be a string' })
  else {
    const problem = nameProblem(user, RESERVED_USER_PREFIXES)
    if (problem) causes.push({ reason: 'FieldValueInvalid', field: 'spec.user', message: problem })
  }
  const spaces = stringList(s.spaces, 'spec.spaces', MAX_SPACES, causes)
  const checkedSpaces = spaces ? checkSpaces(spaces, String(type), causes) : []
  const groups = stringList(s.groups, 'spec.groups', MAX_GROUPS, causes) ?? []
  groups.forEach((g, i) => {
    const problem = nameProblem(g, ['system:'])
    if (problem)
      causes.push({ reason: 'FieldValueInvalid', field: `spec.groups[${i}]`, message: problem })
  })
  const expirationSeconds = checkExpiration(s.expirationSeconds, causes)
  if (causes.length > 0) return { causes }
  return {
    spec: {
      user: user as string,
      type: type as TokenSpec['type'],
      spaces: checkedSpaces,
      groups: [...new Set(groups)],
      expirationSeconds,
    },
    causes: [],
  }
}
