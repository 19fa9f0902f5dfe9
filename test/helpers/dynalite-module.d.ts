/**
 * Minimal type declaration for `dynalite` (it ships none): the factory returns a Node http.Server
 * serving the DynamoDB protocol from an in-memory store.
 */
declare module 'dynalite' {
  import type { Server } from 'node:http'

  type DynaliteOptions = {
    createTableMs?: number
    deleteTableMs?: number
    updateTableMs?: number
    maxItemSizeKb?: number
    path?: string
    verbose?: boolean
  }

  export default function dynalite(options?: DynaliteOptions): Server
}
