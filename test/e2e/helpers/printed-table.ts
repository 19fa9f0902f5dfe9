/**
 * Reads the tables kubectl prints (`get`, `get -o wide`, `api-resources`, `get -w`) back into
 * rows keyed by column header. kubectl left-aligns every cell at its column's start and separates
 * columns by at least three spaces, while a header may hold single spaces (`LAST SEEN`), so the
 * columns are found in the header line and each row is cut at those positions; an empty cell reads
 * as ''. Lines before the header (e.g. warnings) are skipped.
 */

export type PrintedRow = Record<string, string>

type Column = { name: string; start: number }

function columnsOf(header: string): Column[] {
  const out: Column[] = []
  const re = /\S+(?: \S+)*/g
  for (let m = re.exec(header); m; m = re.exec(header)) out.push({ name: m[0], start: m.index })
  return out
}

/** Rows of the first table in `text` whose header line starts with `firstColumn` (NAME). */
export function parsePrinted(text: string, firstColumn = 'NAME'): PrintedRow[] {
  const lines = text.split('\n')
  const at = lines.findIndex((l) => l.startsWith(firstColumn))
  if (at < 0) throw new Error(`no table with a ${firstColumn} column in:\n${text}`)
  const columns = columnsOf(lines[at] ?? '')
  const rows: PrintedRow[] = []
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '') break
    const row: PrintedRow = {}
    columns.forEach((c, i) => {
      const end = columns[i + 1]?.start ?? line.length
      row[c.name] = line.slice(c.start, end).trim()
    })
    rows.push(row)
  }
  return rows
}

/** The row whose first column is `name`; throws (a readable test failure) when there is none. */
export function printedRow(text: string, name: string, firstColumn = 'NAME'): PrintedRow {
  const row = parsePrinted(text, firstColumn).find((r) => r[firstColumn] === name)
  if (!row) throw new Error(`no row ${name} in:\n${text}`)
  return row
}

/** The header names of the first table in `text`. */
export function printedColumns(text: string, firstColumn = 'NAME'): string[] {
  const header = text.split('\n').find((l) => l.startsWith(firstColumn))
  if (header === undefined) throw new Error(`no table with a ${firstColumn} column in:\n${text}`)
  return columnsOf(header).map((c) => c.name)
}
