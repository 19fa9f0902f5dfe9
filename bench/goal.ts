/**
 * One figure of the scale run's `goals` map (scale-report.ts): the value measured (null for a part
 * left out), its target and the edge count it was measured at. A type only.
 */
export type Goal = { value: number | null; target: number; edges: number | null }
