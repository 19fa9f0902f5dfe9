/**
 * The printer of edgeplane's Token (auth.edgeplane.io): USER, TYPE, SPACES (comma-separated; `*`
 * for an admin token, which reaches every space), EXPIRES (time left, or `Expired`), AGE, and
 * with `-o wide` GROUPS. Values a Token lacks are null cells.
 */
import { AGE_COLUMN, ageOf, cellPrinter, column, NAME_COLUMN, nameOf } from './columns.ts'
import { humanDuration, parseTime } from './duration.ts'
import { items, text } from './fields.ts'
import type { Cell, Printer } from './types.ts'

function joined(obj: unknown, path: string): Cell {
  const list = items(obj, path).filter((v): v is string => typeof v === 'string')
  return list.length > 0 ? list.join(',') : null
}

function expires(obj: unknown, now: Date): Cell {
  const at = parseTime(text(obj, 'status.expirationTimestamp'))
  if (at === undefined) return null
  return at <= now.getTime() ? 'Expired' : humanDuration(at - now.getTime())
}

export const TOKEN_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('User', 'string', 'The user name requests with this token authenticate as.'),
    column('Type', 'string', 'user (reaches its spaces) or admin (reaches everything).'),
    column('Spaces', 'string', 'Space paths or subtrees (path:*) the token reaches.'),
    column('Expires', 'string', 'Time left before the token stops working.'),
    AGE_COLUMN,
    column('Groups', 'string', 'Groups reported for the token.', 1),
  ],
  (obj, ctx) => {
    const type = text(obj, 'spec.type') ?? null
    return [
      nameOf(obj),
      text(obj, 'spec.user') ?? null,
      type,
      type === 'admin' ? '*' : joined(obj, 'spec.spaces'),
      expires(obj, ctx.now),
      ageOf(obj, ctx),
      joined(obj, 'spec.groups'),
    ]
  }
)
