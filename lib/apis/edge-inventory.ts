/**
 * zod schemas and types of the inventory kinds of `edge.kcp.io/v1alpha1` (reference §2.5, §2.6):
 * SyncTarget, one per edge cluster, and Location, the labelled place EdgePlacements select, whose
 * instanceSelector picks SyncTargets of its own space. Both live in inventory spaces (root:imw-1
 * locally). The fields kcp's TMC defined and edgeplane does not read are kept, and say so, so
 * that objects written for KubeStellar still apply.
 */
import { z } from 'zod'
import { kindObject } from './kind-object.ts'
import {
  ConditionSchema,
  GroupVersionResourceSchema,
  LabelSelectorSchema,
  QuantitySchema,
} from './meta.ts'

const strings = () => z.array(z.string())
const time = () => z.string().describe('An RFC 3339 timestamp.')
const UNUSED = 'Kept from kcp; edgeplane does not use it.'
const mapMarkers = { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }

// ---- SyncTarget ----
export const SyncTargetSpecSchema = z
  .object({
    unschedulable: z.boolean().optional().describe(`Would keep new workloads off. ${UNUSED}`),
    evictAfter: time().optional().describe(`When workloads would be moved away. ${UNUSED}`),
    supportedAPIExports: z
      .array(
        z.object({
          path: z.string().optional().describe('Path of the space holding the APIExport.'),
          export: z.string().describe('Name of the APIExport.'),
        })
      )
      .optional()
      .describe(`The APIExports the edge would serve. ${UNUSED}`),
    cells: z.record(z.string(), z.string()).optional().describe(`Placement cells. ${UNUSED}`),
  })
  .describe('Settings of the edge cluster; edgeplane reads none of them.')
export const SyncTargetStatusSchema = z
  .object({
    allocatable: z
      .record(z.string(), QuantitySchema)
      .optional()
      .describe(`Resources the edge could give workloads. ${UNUSED}`),
    capacity: z
      .record(z.string(), QuantitySchema)
      .optional()
      .describe(`Resources the edge has in all. ${UNUSED}`),
    conditions: z
      .array(ConditionSchema)
      .optional()
      .describe(
        "Ready (by the center from its agent's heartbeats: True, reason Heartbeating, while the " +
          'agent was heard within the staleness threshold, 3 minutes by default; Unknown, reason ' +
          'Stale, once silent that long, or NeverSeen before any heartbeat) and Inventory (by the ' +
          'mailbox step, only while False: the space is no inventory space and the SyncTarget ' +
          'makes no edge).'
      )
      .meta(mapMarkers),
    agentVersion: z
      .string()
      .optional()
      .describe("The edge agent's version, as its last heartbeat told it (written with Ready)."),
    syncedResources: z
      .array(
        z.object({
          group: z.string().optional().describe('API group; empty is the core group.'),
          resource: z.string().describe('Lowercase plural resource.'),
          versions: strings().optional().describe('Versions served.'),
          identityHash: z.string().optional().describe("The APIExport's identity hash."),
          state: z
            .enum(['Pending', 'Accepted', 'Incompatible'])
            .optional()
            .describe('Pending, Accepted or Incompatible.'),
        })
      )
      .optional()
      .describe(`Resources a kcp syncer would sync. ${UNUSED}`),
    lastSyncerHeartbeatTime: time()
      .optional()
      .describe(
        'When the center last stored a heartbeat of the agent: when it came back and then once ' +
          "every 10 minutes while it beats (as a Node condition's lastHeartbeatTime), so up to " +
          'that old for a live edge. Whether the edge is live is the Ready condition.'
      ),
    virtualWorkspaces: z
      .array(
        z.object({
          syncerURL: z.string().optional().describe("The syncer's virtual workspace URL."),
          upsyncerURL: z.string().optional().describe("The upsyncer's virtual workspace URL."),
        })
      )
      .optional()
      .describe(`kcp's virtual workspace URLs for the syncer. ${UNUSED}`),
  })
  .describe('What the center knows of the edge: whether its agent is live, and its version.')
export const SyncTargetSchema = kindObject(
  'SyncTarget',
  'An edge cluster, registered in an inventory space: it gets a mailbox (a space under ' +
    'root:espw holding what goes to it) and the credential its edge agent polls with. Locations ' +
    'of the same space select it by its labels (id=<name> by convention).',
  {
    spec: SyncTargetSpecSchema.optional(),
    status: SyncTargetStatusSchema.optional(),
  }
)
export type SyncTarget = z.infer<typeof SyncTargetSchema>

// ---- Location ----
export const LocationSpecSchema = z
  .object({
    resource: GroupVersionResourceSchema.describe(
      'The kind of instances: edge.kcp.io/v1alpha1 synctargets.'
    ),
    instanceSelector: LabelSelectorSchema.optional().describe(
      'Which SyncTargets of this space the Location stands for; absent selects none.'
    ),
    description: z.string().optional().describe('Free text for people.'),
    availableSelectorLabels: z
      .array(
        z.object({
          key: z.string().describe('A label key.'),
          values: strings().describe('Values it may take.'),
          description: z.string().optional().describe('What the label means.'),
        })
      )
      .optional()
      .describe(`Labels placements may select on, for tools to offer. ${UNUSED}`),
  })
  .describe('What the Location stands for.')
export const LocationSchema = kindObject(
  'Location',
  'A place workloads can go, in an inventory space: EdgePlacements select it by its labels ' +
    '(env=prod), which are also the %(name) parameters of customization, and it stands for the ' +
    'SyncTargets of its space its instanceSelector matches.',
  {
    spec: LocationSpecSchema,
    status: z
      .object({
        instances: z.int32().min(0).optional().describe(`Instances selected. ${UNUSED}`),
        availableInstances: z.int32().min(0).optional().describe(`Instances available. ${UNUSED}`),
        conditions: z
          .array(ConditionSchema)
          .optional()
          .describe(
            'Inventory (by the mailbox step, only while False: the space is no inventory space ' +
              'and no placement can select the Location).'
          )
          .meta(mapMarkers),
      })
      .optional()
      .describe('What the center says of the Location.'),
  }
)
export type Location = z.infer<typeof LocationSchema>
