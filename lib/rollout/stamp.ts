/**
 * The annotation a mailbox copy carries when translation projected it from a Rollout's revision
 * (docs/architecture/placement.md, "Rollout"): `<rollout-name>/<revision>`. The summarize step
 * reads it to tell which revision an edge's copy is at.
 */
export const ROLLOUT_REVISION_ANNOTATION = 'edge.kcp.io/rollout-revision'

/** The Rollout and revision a stamp names; undefined when absent or malformed. */
export function parseStamp(
  value: string | undefined
): { rollout: string; revision: number } | undefined {
  const m =
    value === undefined ? null : /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?)\/([1-9][0-9]{0,9})$/.exec(value)
  return m ? { rollout: m[1] as string, revision: Number(m[3]) } : undefined
}
