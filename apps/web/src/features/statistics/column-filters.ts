/** A column of a statistics table: its header and the value its filter offers. */
export interface TColumn<R> {
  key: string;
  label: string;
  value: (row: R) => string | number;
  /** How a value reads in the cell and in the filter (the value itself by default). */
  format?: (value: string) => string;
}

/** Chosen values per column key; a column with none chosen shows every row. */
export type TColumnFilters = Record<string, string[]>;

/** The distinct values of a column, numbers in numeric order and text in alphabetical order. */
export function distinctValues<R>(rows: readonly R[], column: TColumn<R>): string[] {
  const values = [...new Set(rows.map(column.value))];
  values.sort((a, b) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)),
  );
  return values.map(String);
}

/** The rows every filtered column lets through. */
export function applyColumnFilters<R>(
  rows: readonly R[],
  columns: readonly TColumn<R>[],
  filters: TColumnFilters,
): R[] {
  const active = columns.filter((c) => (filters[c.key]?.length ?? 0) > 0);
  return rows.filter((row) => active.every((c) => filters[c.key]!.includes(String(c.value(row)))));
}

/**
 * The filter that shows only rows with a non-zero value in the column: all the values seen but zero.
 * Empty (no filter) when no row has one.
 */
export function nonZeroValues<R>(rows: readonly R[], column: TColumn<R>): string[] {
  return distinctValues(rows, column).filter((v) => v !== '0');
}

export function hasColumnFilters(filters: TColumnFilters): boolean {
  return Object.values(filters).some((values) => values.length > 0);
}
