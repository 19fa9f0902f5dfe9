/**
 * Message descriptors as data, and the small constructors the kube type tables are written with.
 * A descriptor lists its fields in Go struct order (so decoded JSON keeps the familiar key order),
 * each with its protobuf field number, its JSON name, and its shape: a single value, a repeated
 * value, or a map with string keys. Values are protobuf scalars, nested messages, or the kube
 * wrapper messages that JSON renders specially (IntOrString, Quantity, Time, MicroTime, FieldsV1).
 *
 * Presence: generated kube protobuf always writes non-pointer fields, zero or not, so a zero
 * value is dropped from the JSON unless the field is marked `KEEP` (a Go pointer, or a JSON field
 * without `omitempty` where zero means something, such as PriorityClass `value`).
 */

export type ScalarType = 'string' | 'int32' | 'int64' | 'bool' | 'bytes' | 'double'
export type SpecialType = 'intOrString' | 'quantity' | 'time' | 'microTime' | 'fieldsV1'
export type ValueType = ScalarType | SpecialType | MessageDesc

export type FieldOptions = {
  /** Emit the value whenever it is on the wire, even when zero or an empty object. */
  keep?: boolean
  /** Merge the decoded message's fields into the parent (Go `json:",inline"`). */
  inline?: boolean
}

export type FieldDesc = {
  num: number
  name: string
  type: ValueType
  shape: 'single' | 'list' | 'map'
  keep: boolean
  inline: boolean
}

export type MessageDesc = {
  /** The protobuf message name, used in error messages. */
  name: string
  fields: readonly FieldDesc[]
  byNumber: ReadonlyMap<number, FieldDesc>
}

export const KEEP: FieldOptions = { keep: true }
export const INLINE: FieldOptions = { inline: true }

export function message(name: string, fields: FieldDesc[]): MessageDesc {
  const byNumber = new Map<number, FieldDesc>()
  for (const f of fields) {
    if (byNumber.has(f.num)) throw new Error(`duplicate field number ${f.num} in ${name}`)
    byNumber.set(f.num, f)
  }
  return { name, fields, byNumber }
}

function single(num: number, name: string, type: ValueType, o: FieldOptions = {}): FieldDesc {
  return { num, name, type, shape: 'single', keep: o.keep ?? false, inline: o.inline ?? false }
}

export const str = (num: number, name: string, o?: FieldOptions) => single(num, name, 'string', o)
export const int32 = (num: number, name: string, o?: FieldOptions) => single(num, name, 'int32', o)
export const int64 = (num: number, name: string, o?: FieldOptions) => single(num, name, 'int64', o)
export const bool = (num: number, name: string, o?: FieldOptions) => single(num, name, 'bool', o)
export const bytes = (num: number, name: string, o?: FieldOptions) => single(num, name, 'bytes', o)
export const intOrString = (num: number, name: string, o?: FieldOptions) =>
  single(num, name, 'intOrString', o)
export const quantity = (num: number, name: string, o?: FieldOptions) =>
  single(num, name, 'quantity', o)
export const time = (num: number, name: string) => single(num, name, 'time')
export const microTime = (num: number, name: string) => single(num, name, 'microTime')
export const fieldsV1 = (num: number, name: string) => single(num, name, 'fieldsV1')
export const obj = (num: number, name: string, desc: MessageDesc, o?: FieldOptions) =>
  single(num, name, desc, o)

export function list(num: number, name: string, type: ValueType): FieldDesc {
  return { num, name, type, shape: 'list', keep: false, inline: false }
}

/** `map<string, V>`: on the wire a repeated entry message {1: key, 2: value}. */
export function map(num: number, name: string, type: ValueType): FieldDesc {
  return { num, name, type, shape: 'map', keep: false, inline: false }
}
