/**
 * Plain-text tables for the benchmark report: columns padded to their widest cell, text left
 * aligned and numbers right aligned, and a number formatter that keeps figures readable (NaN as
 * "-", big values without decimals).
 */

export type Cell = string | number

/** A number for a table: "-" when not finite, no decimals from 1000 up, else `digits` decimals. */
export function fmt(x: number, digits = 1): string {
  if (!Number.isFinite(x)) return '-'
  if (Math.abs(x) >= 1000) return Math.round(x).toString()
  return x.toFixed(digits)
}

/** Renders rows under a header line, two spaces between columns, indented by `indent`. */
export function formatTable(
  headers: readonly string[],
  rows: readonly Cell[][],
  indent = '  '
): string {
  const width = headers.map((h, c) =>
    Math.max(h.length, ...rows.map((r) => String(r[c] ?? '').length))
  )
  const numeric = headers.map((_, c) => rows.length > 0 && rows.every((r) => isNumeric(r[c])))
  const line = (cells: readonly Cell[]) =>
    indent +
    headers
      .map((_, c) => {
        const text = String(cells[c] ?? '')
        const w = width[c] ?? 0
        return numeric[c] ? text.padStart(w) : text.padEnd(w)
      })
      .join('  ')
      .trimEnd()
  return [line(headers), ...rows.map(line)].join('\n')
}

function isNumeric(cell: Cell | undefined): boolean {
  if (typeof cell === 'number') return true
  return cell === '-' || (typeof cell === 'string' && /^-?[0-9][0-9.,]*x?$/.test(cell))
}
