/**
 * The edge API objects as the steps hold them once decoded (decode.ts): the types the
 * `edge.kcp.io/v1alpha1` schemas infer, with the hub's ObjectMeta.
 */
import type { Decoded } from './decode.ts'
import type { LocationSchema, SyncTargetSchema } from './edge-inventory.ts'
import type {
  CustomizerSchema,
  EdgePlacementSchema,
  SinglePlacementSliceSchema,
  SyncerConfigSchema,
} from './edge-v1alpha1.ts'

export type EdgePlacementObject = Decoded<typeof EdgePlacementSchema>
export type LocationObject = Decoded<typeof LocationSchema>
export type SyncTargetObject = Decoded<typeof SyncTargetSchema>
export type SliceObject = Decoded<typeof SinglePlacementSliceSchema>
export type CustomizerObject = Decoded<typeof CustomizerSchema>
export type SyncerConfigObject = Decoded<typeof SyncerConfigSchema>
