/**
 * Kubernetes name and key syntax, as the API server checks it: DNS-1123 subdomains and labels,
 * DNS-1035 labels, path-segment names, qualified names (label and annotation keys), label
 * values, and ConfigMap/Secret data keys. Each `*Errors` function returns kube's own wording for
 * every rule broken (empty when the value is valid), so callers can put them in StatusCauses.
 * Also the `generateName` suffix: 5 characters from kube's vowel-free alphabet, with the random
 * source injectable so tests are deterministic.
 */

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?'
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?'
const QUALIFIED_NAME_PART = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'
const LABEL_VALUE = `(${QUALIFIED_NAME_PART})?`
const CONFIG_KEY = '[-._a-zA-Z0-9]+'

const full = (re: string) => new RegExp(`^${re}$`)
const DNS1123_LABEL_RE = full(DNS1123_LABEL)
const DNS1123_SUBDOMAIN_RE = full(DNS1123_SUBDOMAIN)
const DNS1035_LABEL_RE = full(DNS1035_LABEL)
const QUALIFIED_NAME_PART_RE = full(QUALIFIED_NAME_PART)
const LABEL_VALUE_RE = full(LABEL_VALUE)
const CONFIG_KEY_RE = full(CONFIG_KEY)

export const DNS1123_LABEL_MAX_LENGTH = 63
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253
export const LABEL_VALUE_MAX_LENGTH = 63

const maxLen = (n: number) => `must be no more than ${n} characters`

/** Errors for a lowercase RFC 1123 subdomain (most object names). */
export function dnsSubdomainErrors(value: string): string[] {
  const errs: string[] = []
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLen(DNS1123_SUBDOMAIN_MAX_LENGTH))
  if (!DNS1123_SUBDOMAIN_RE.test(value)) {
    errs.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', " +
        "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for " +
        `validation is '${DNS1123_SUBDOMAIN}')`
    )
  }
  return errs
}

/** Errors for a lowercase RFC 1123 label (namespace names, label-like names). */
export function dnsLabelErrors(value: string): string[] {
  const errs: string[] = []
  if (value.length > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLen(DNS1123_LABEL_MAX_LENGTH))
  if (!DNS1123_LABEL_RE.test(value)) {
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and " +
        "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex " +
        `used for validation is '${DNS1123_LABEL}')`
    )
  }
  return errs
}

/** Errors for a DNS-1035 label (Service names: must start with a letter). */
export function dns1035LabelErrors(value: string): string[] {
  const errs: string[] = []
  if (value.length > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLen(DNS1123_LABEL_MAX_LENGTH))
  if (!DNS1035_LABEL_RE.test(value)) {
    errs.push(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an " +
        "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or " +
        `'abc-123', regex used for validation is '${DNS1035_LABEL}')`
    )
  }
  return errs
}

/** Errors for a name that only has to be a usable URL path segment (RBAC objects). */
export function pathSegmentErrors(value: string): string[] {
  const errs: string[] = []
  if (value === '.' || value === '..') errs.push(`may not be '${value}'`)
  for (const bad of ['/', '%']) if (value.includes(bad)) errs.push(`may not contain '${bad}'`)
  return errs
}

/** Errors for a qualified name `[prefix/]name` (label keys, annotation keys, finalizers). */
export function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = []
  const parts = value.split('/')
  let name = value
  if (parts.length === 2) {
    const [prefix, rest] = parts as [string, string]
    name = rest
    if (prefix.length === 0) errs.push('prefix part must be non-empty')
    else for (const e of dnsSubdomainErrors(prefix)) errs.push(`prefix part ${e}`)
  } else if (parts.length > 2) {
    return [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start " +
        "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', " +
        `regex used for validation is '${QUALIFIED_NAME_PART}') with an optional DNS subdomain ` +
        "prefix and '/' (e.g. 'example.com/MyName')",
    ]
  }
  if (name.length === 0) return [...errs, 'name part must be non-empty']
  if (name.length > 63) errs.push(`name part ${maxLen(63)}`)
  if (!QUALIFIED_NAME_PART_RE.test(name)) {
    errs.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end " +
        "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used " +
        `for validation is '${QUALIFIED_NAME_PART}')`
    )
  }
  return errs
}

/** Errors for a label value (may be empty). */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = []
  if (value.length > LABEL_VALUE_MAX_LENGTH) errs.push(maxLen(LABEL_VALUE_MAX_LENGTH))
  if (!LABEL_VALUE_RE.test(value)) {
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or " +
        "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or " +
        `'my_value',  or '12345', regex used for validation is '${LABEL_VALUE}')`
    )
  }
  return errs
}

/** Errors for a ConfigMap or Secret data key. */
export function configKeyErrors(value: string): string[] {
  const errs: string[] = []
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLen(DNS1123_SUBDOMAIN_MAX_LENGTH))
  if (!CONFIG_KEY_RE.test(value)) {
    errs.push(
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. " +
        `'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '${CONFIG_KEY}')`
    )
  }
  if (value === '.' || value === '..') errs.push(`must not be '${value}'`)
  else if (value.startsWith('..')) errs.push("must not start with '..'")
  return errs
}

export const isDnsSubdomain = (v: string) => dnsSubdomainErrors(v).length === 0
export const isDnsLabel = (v: string) => dnsLabelErrors(v).length === 0
export const isQualifiedName = (v: string) => qualifiedNameErrors(v).length === 0
export const isLabelValue = (v: string) => labelValueErrors(v).length === 0

/**
 * kube validates a `generateName` as a name prefix: a trailing '-' is allowed because the random
 * suffix follows it, so it is masked before the name rule runs.
 */
export function maskTrailingDash(prefix: string): string {
  return prefix.length > 1 && prefix.endsWith('-') ? `${prefix.slice(0, -1)}a` : prefix
}

/** kube's alphabet for generated suffixes: no vowels (no accidental words), no look-alikes. */
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789'
export const GENERATED_SUFFIX_LENGTH = 5
const MAX_GENERATED_NAME_LENGTH = DNS1123_LABEL_MAX_LENGTH - GENERATED_SUFFIX_LENGTH

/** Five random characters; `random` returns a number in [0, 1) like Math.random. */
export function randomNameSuffix(random: () => number = Math.random): string {
  let out = ''
  for (let i = 0; i < GENERATED_SUFFIX_LENGTH; i++) {
    const idx = Math.min(SUFFIX_ALPHABET.length - 1, Math.floor(random() * SUFFIX_ALPHABET.length))
    out += SUFFIX_ALPHABET[idx]
  }
  return out
}

/** The name for an object created with `metadata.generateName`: the prefix, cut to 58, + suffix. */
export function generateObjectName(prefix: string, random: () => number = Math.random): string {
  return prefix.slice(0, MAX_GENERATED_NAME_LENGTH) + randomNameSuffix(random)
}
