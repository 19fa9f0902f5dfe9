/**
 * Builds the hub's dependencies from a parsed configuration: one DynamoDB client and store per
 * process or isolate (created lazily and reused) with what belongs to that hub alongside it (its
 * caches, hub-caches.ts, and its kind hooks, builtin-hooks.ts: shared by every request the handle
 * serves, never by another handle), the object store wrapped so mailbox spaces serve their
 * projected copies, the edges' staleness rule, the real clock, random uids, a JSON logger, and the runtime's way of running
 * background work.
 */
import { type Builtins, builtinsFrom, parseBuiltinNamespaces } from '../apis/builtins.ts'
import type { Config } from '../env.ts'
import { createLogger, type Logger } from '../log.ts'
import { createDynamoClient } from '../store/dynamo-client.ts'
import { createDynamoStore, type DynamoStore } from '../store/dynamo-store.ts'
import type { RequestCounter } from '../store/types.ts'
import { type Liveness, livenessRule } from '../summarize/liveness.ts'
import { builtinKindHooks } from './builtin-hooks.ts'
import type { HubDeps } from './deps.ts'
import { createHubCaches, type HubCaches } from './hub-caches.ts'
import type { KindHookRegistry } from './kind-hooks.ts'
import { mailboxSpaceCheck, withProjections } from './projected-objects.ts'

export type StoreHandle = {
  store: DynamoStore
  log: Logger
  builtins: Builtins
  liveness: Liveness
  caches: HubCaches
  hooks: KindHookRegistry<HubDeps>
}

export function openStore(cfg: Config, counter?: RequestCounter): StoreHandle {
  const client = createDynamoClient({
    ...(cfg.DDB_ENDPOINT ? { endpoint: cfg.DDB_ENDPOINT } : {}),
    region: cfg.DDB_REGION,
    ...(cfg.AWS_ACCESS_KEY_ID && cfg.AWS_SECRET_ACCESS_KEY
      ? {
          credentials: {
            accessKeyId: cfg.AWS_ACCESS_KEY_ID,
            secretAccessKey: cfg.AWS_SECRET_ACCESS_KEY,
          },
        }
      : cfg.DDB_ENDPOINT
        ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    ...(counter ? { counter } : {}),
  })
  const store = createDynamoStore({
    client,
    tableName: cfg.TABLE_NAME,
    logRetentionMs: cfg.WATCH_RETENTION_SECONDS * 1000,
  })
  return {
    store,
    log: createLogger({ level: cfg.LOG_LEVEL }),
    builtins: builtinsFrom(parseBuiltinNamespaces(cfg.EDGE_BUILTIN_NAMESPACES)),
    liveness: livenessRule(cfg.EDGE_STALE_AFTER_SECONDS),
    caches: createHubCaches(),
    hooks: builtinKindHooks(),
  }
}

export function hubDeps(h: StoreHandle, background: (p: Promise<unknown>) => void): HubDeps {
  return {
    objects: withProjections(h.store.objects, h.store.projections, mailboxSpaceCheck(h.store.kv)),
    kv: h.store.kv,
    projections: h.store.projections,
    builtins: h.builtins,
    liveness: h.liveness,
    now: () => new Date(),
    uid: () => crypto.randomUUID(),
    log: h.log,
    background,
    caches: h.caches,
    hooks: h.hooks,
  }
}
