/**
 * The `wait` preference of an agent's desired-state poll (RFC 7240, `Prefer: wait=N`): how many
 * seconds the agent lets the center hold the answer. Parsed strictly, since the header comes from
 * the network: the header is a comma-separated list of preferences, each `token [= word]` with
 * optional `;` parameters; only the first `wait` counts (RFC 7240 §2: a repeated preference is
 * ignored), and its value must be 1 to 10 decimal digits, bare or quoted. Anything else — a header
 * over 1,024 characters, a malformed list, a sign, a fraction, hex, an empty value — means no
 * preference: the poll is answered as one that asked nothing. `appliedWait` words the answer's
 * `Preference-Applied` header.
 */

/** The longest `Prefer` header read; a longer one is ignored whole. */
export const PREFER_MAX_LENGTH = 1024

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const SECONDS = /^\d{1,10}$/
/** RFC 9110's optional whitespace is spaces and tabs only (String.trim takes more). */
const ows = (s: string) => s.replace(/^[ \t]+|[ \t]+$/g, '')

/** The value of one `name[=value]` element, unquoted; undefined when malformed. */
function element(text: string): { name: string; value: string | undefined } | undefined {
  const eq = text.indexOf('=')
  const name = ows(eq < 0 ? text : text.slice(0, eq))
  if (!TOKEN.test(name)) return undefined
  if (eq < 0) return { name: name.toLowerCase(), value: undefined }
  let value = ows(text.slice(eq + 1))
  if (value.startsWith('"')) {
    if (value.length < 2 || !value.endsWith('"') || value.slice(1, -1).includes('"')) return
    value = value.slice(1, -1)
  } else if (!TOKEN.test(value)) return undefined
  return { name: name.toLowerCase(), value }
}

/**
 * The seconds named by the first `wait` preference of a `Prefer` header, or undefined when there
 * is none or the header is malformed.
 */
export function parsePreferWait(header: string | null | undefined): number | undefined {
  if (!header || header.length > PREFER_MAX_LENGTH) return undefined
  for (const preference of header.split(',')) {
    if (ows(preference) === '') continue
    // The preference itself is the first element; its parameters follow after `;`.
    const [head, ...params] = preference.split(';')
    const pref = element(head ?? '')
    if (!pref) return undefined
    if (params.some((p) => ows(p) !== '' && !element(p))) return undefined
    if (pref.name !== 'wait') continue
    if (pref.value === undefined || !SECONDS.test(pref.value)) return undefined
    return Number(pref.value)
  }
  return undefined
}

/** The `Preference-Applied` header of an answer held (or holdable) for `seconds`. */
export function appliedWait(seconds: number): string {
  return `wait=${seconds}`
}

/** The seconds of a `Preference-Applied: wait=M` header (the agent's side), else undefined. */
export function parseAppliedWait(header: string | null | undefined): number | undefined {
  return parsePreferWait(header)
}
