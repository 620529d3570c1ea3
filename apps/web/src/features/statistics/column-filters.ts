import type { TStatsFilters } from '@threadreach/contract';

/** A column of a statistics table: its header and the value its cell shows and its filter matches. */
export interface TColumn<R> {
  key: string;
  label: string;
  value: (row: R) => string | number;
  /** How a value reads in the cell and in the filter (the value itself by default). */
  format?: (value: string) => string;
}

/** Chosen values per column key; a column with none chosen shows every row. */
export type TColumnFilters = TStatsFilters;

export function hasColumnFilters(filters: TColumnFilters): boolean {
  return Object.values(filters).some((values) => values.length > 0);
}
