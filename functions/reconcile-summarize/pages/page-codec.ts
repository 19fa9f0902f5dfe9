/**
 * The stored form of a page's facts (page-facts.ts) in the key-value store: the facts as JSON,
 * gzip-compressed and base64-encoded in one value (`{ z }`), validated with zod when read back —
 * a stored page that does not decode, or of another format, is no page (it is read again). A page
 * whose encoding does not fit one value (MAX_PAGE_BYTES, under the store's 350 kB) is refused
 * with PageTooLarge before anything is written; the caller then makes its plan's pages smaller.
 */
import { z } from 'zod'
import { PlacementSummarySchema } from '../../../lib/apis/edge-summary.ts'
import { bodyText, gzip } from '../../../lib/store/body-codec.ts'
import { EntrySchema, StateBodySchema } from '../../../lib/store/projection-codec.ts'
import type { PageFacts } from './page-facts.ts'
import { PAGE_FORMAT } from './plan.ts'

/** The most encoded bytes one page may take (base64 text; one value holds 350 kB of JSON). */
export const MAX_PAGE_BYTES = 340_000

export class PageTooLarge extends Error {
  constructor(bytes: number) {
    super(`a summarize page of ${bytes} encoded bytes does not fit one stored value`)
    this.name = 'PageTooLarge'
  }
}

const CopyKeySchema = z.object({
  group: z.string(),
  resource: z.string(),
  namespace: z.string(),
  name: z.string(),
})

const PageSchema = z.object({
  format: z.literal(PAGE_FORMAT),
  ask: z.string(),
  readAt: z.number(),
  again: z.boolean().optional(),
  epochs: z.object({ manifests: z.number().optional(), spaces: z.number().optional() }),
  mailboxes: z.array(z.string()),
  spaces: z.array(z.string().nullable()),
  content: z.array(z.number().nullable()),
  reports: z.array(z.string().nullable()),
  copies: z.array(
    z.object({
      entry: EntrySchema.optional(),
      state: StateBodySchema.extend({ uid: z.string(), rv: z.number() }).optional(),
    })
  ),
  pairs: z.record(z.string(), z.array(z.number().int())),
  holds: z.array(
    z.object({
      held: z.array(z.string()),
      removing: z.array(z.object({ key: CopyKeySchema, placements: z.array(z.string()) })),
    })
  ),
  holdOf: z.array(z.number().int()),
  upsync: PlacementSummarySchema.shape.upsync,
})

const StoredSchema = z.object({ z: z.string() })

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text)
  const out = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
  return out
}

/** The value storing `facts`; PageTooLarge when it does not fit. */
export async function encodePage(facts: PageFacts): Promise<{ z: string }> {
  const json = new TextEncoder().encode(JSON.stringify({ format: PAGE_FORMAT, ...facts }))
  const text = toBase64(await gzip(json))
  if (text.length > MAX_PAGE_BYTES) throw new PageTooLarge(text.length)
  return { z: text }
}

/** The facts a stored value holds; undefined when it is no page of this format. */
export async function decodePage(value: unknown): Promise<PageFacts | undefined> {
  const stored = StoredSchema.safeParse(value)
  if (!stored.success) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(await bodyText(fromBase64(stored.data.z)))
  } catch {
    return undefined
  }
  const page = PageSchema.safeParse(parsed)
  if (!page.success) return undefined
  const { format: _format, upsync, again, ...facts } = page.data
  return { ...facts, ...(again ? { again } : {}), ...(upsync ? { upsync } : {}) } as PageFacts
}
