/**
 * What the matrix shows of a space's Rollouts, from the matrix answer (docs/architecture/
 * dashboard.md, "Rollouts"): each Rollout's summary (phase, the revision in flight and the
 * completed one, the current wave), an edge's wave under each (numbered in the Rollout's order,
 * the number picking its color), and a cell's revision — the one its copies hold, as the API read
 * it from their stamps — marked `behind` when it is older than the revision of the edge's wave
 * (the wave's own, or the completed one for a wave not promoted yet or an edge no wave takes),
 * and `held` when the edge is not due that revision yet (above the wave's cut under maxEdges).
 * No DOM here, so the rules are tested without a browser.
 */

/** The Rollouts of an answer by name. */
export const byName = (rollouts) => new Map((rollouts ?? []).map((r) => [r.name, r]))

/**
 * The revision the wave `name` of `r` is at: its own, else the completed one; none while the
 * Rollout holds nothing (no revision completed yet), as the hold's rule says.
 */
export function waveRevision(r, name) {
  if (!r.completedRevision) return undefined
  const w = name ? r.waves.find((x) => x.name === name) : undefined
  return w?.revision ?? r.completedRevision
}

/** "r2", "r1–2" (copies at two revisions), or "—" (no copy carries a stamp). */
export function revisionText(rev) {
  if (!rev || rev.lowest === null) return '—'
  return rev.highest !== rev.lowest ? `r${rev.lowest}–${rev.highest}` : `r${rev.lowest}`
}

/** "r2 in flight at wave canary · completed r1 · Progressing" */
export function rolloutSummary(r) {
  if (r.invalid) return `invalid: ${r.invalid}`
  if (!r.completedRevision) return 'not adopted yet: its objects go everywhere as they are'
  const parts = []
  if (r.revision !== undefined && r.revision !== r.completedRevision)
    parts.push(`r${r.revision} in flight${r.currentWave ? ` at wave ${r.currentWave}` : ''}`)
  parts.push(`completed r${r.completedRevision}`)
  if (r.pendingRevision) parts.push(`r${r.pendingRevision} waiting`)
  if (r.phase) parts.push(r.phase)
  return parts.join(' · ')
}

/**
 * The wave marks of an edge: per Rollout of `names` that says where the edge is, its wave's
 * number (1-based; 0 for no wave), name and what it means, in words.
 */
export function edgeWaves(rollouts, names, edge) {
  const out = []
  for (const name of names) {
    const r = rollouts.get(name)
    const at = edge?.rollouts?.[name]
    if (!r || !at) continue
    const index = at.wave === null ? 0 : r.waves.findIndex((w) => w.name === at.wave) + 1
    const rev = waveRevision(r, at.wave)
    const where =
      at.wave === null ? 'in no wave (it keeps the completed revision)' : `wave ${index} ${at.wave}`
    const due = at.due !== undefined && at.due !== rev ? `, due r${at.due}` : ''
    out.push({
      rollout: name,
      index,
      wave: at.wave,
      title: `Rollout ${name}: ${where}${rev !== undefined ? ` at r${rev}` : ''}${due}`,
    })
  }
  return out
}

/**
 * What a cell shows of the Rollouts governing its row (`row.rollouts`), from `cell.revisions`:
 * per Rollout its text, whether it is behind its wave's revision, whether the edge is held back
 * by the wave's cut, and a line for the tooltip.
 */
export function cellMarks(rollouts, row, edge, cell) {
  const out = []
  for (const name of row?.rollouts ?? []) {
    const r = rollouts.get(name)
    const rev = cell?.revisions?.[name]
    if (!r || !rev) continue
    const at = edge?.rollouts?.[name]
    const target = waveRevision(r, at?.wave ?? null)
    const behind =
      target !== undefined && (rev.lowest === null ? rev.unstamped > 0 : rev.lowest < target)
    const held = behind && at?.due !== undefined && target !== undefined && at.due < target
    const text = revisionText(rev)
    const unstamped = rev.unstamped ? `; ${rev.unstamped} of ${rev.objects} not sent from it` : ''
    let why = ''
    if (held) why = ` (older than its wave's r${target}: not its turn yet, maxEdges)`
    else if (behind) why = ` (older than its wave's r${target})`
    out.push({
      rollout: name,
      text,
      behind,
      held,
      title: `Rollout ${name}: copies at ${text === '—' ? 'no revision' : text}${why}${unstamped}`,
    })
  }
  return out
}

/** An edge's waves under the Rollouts of `list`, in words: "shop: wave 1 canary"; "" for none. */
export function panelWaveText(list, edge) {
  const parts = []
  for (const r of list ?? []) {
    const at = edge?.rollouts?.[r.name]
    if (!at) continue
    const i = at.wave === null ? -1 : r.waves.findIndex((w) => w.name === at.wave)
    parts.push(`${r.name}: ${i < 0 ? 'no wave' : `wave ${i + 1} ${at.wave}`}`)
  }
  return parts.join(', ')
}
