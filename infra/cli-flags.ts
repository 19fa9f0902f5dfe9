/**
 * The flag reader the Node programs under infra/ share (relay, edge agent, simulated edge,
 * bootstrap): `--name value` or `--name=value` for the value flags given, bare `--name` for the
 * boolean ones, a lone `--` skipped. Anything else is an error message naming it; so is a value
 * flag without a value, or with an empty one unless the flag is listed in `emptyOk`. A flag given
 * twice keeps its last value. Pure; `--help` is for each program to look for first.
 */

export type FlagSpec = {
  values: readonly string[]
  bools?: readonly string[]
  /** Value flags that may be given an empty value (`--builtin-namespaces=`). */
  emptyOk?: readonly string[]
}

export type Flags = { values: Map<string, string>; bools: Set<string> }

/** The flags given, or an error message. */
export function readFlags(argv: readonly string[], spec: FlagSpec): Flags | string {
  const values = new Map<string, string>()
  const bools = new Set<string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg === '--') continue
    if (spec.bools?.includes(arg)) {
      bools.add(arg)
      continue
    }
    const eq = arg.indexOf('=')
    const name = eq > 0 ? arg.slice(0, eq) : arg
    if (!spec.values.includes(name)) return `unknown argument: ${arg}`
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i]
    if (value === undefined || (value === '' && !spec.emptyOk?.includes(name)))
      return `${name} needs a value`
    values.set(name, value)
  }
  return { values, bools }
}
