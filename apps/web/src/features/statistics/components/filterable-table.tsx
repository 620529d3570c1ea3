import { Fragment, useState, type ReactNode } from 'react';
import { ActionIcon, Group, Table } from '@mantine/core';
import type { TColumn, TColumnFilters } from '../column-filters';
import { ColumnFilter } from './column-filter';

interface TFilterableTableProps<R> {
  label: string;
  /** What each column's filter offers: the values of every row of the range, by column key. */
  values: Readonly<Record<string, readonly string[]>>;
  /** The rows of this page that the filters let through. */
  rows: readonly R[];
  columns: readonly TColumn<R>[];
  filters: TColumnFilters;
  onFilter: (key: string, values: string[]) => void;
  rowKey: (row: R) => string;
  rowName: (row: R) => string;
  details: (row: R) => ReactNode;
}

/** A statistics table: a multi-select filter on every column and rows that open to show more. */
export function FilterableTable<R>({
  label,
  values,
  rows,
  columns,
  filters,
  onFilter,
  rowKey,
  rowName,
  details,
}: TFilterableTableProps<R>) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const cell = (column: TColumn<R>, row: R) => {
    const value = String(column.value(row));
    return column.format ? column.format(value) : value;
  };

  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40} aria-label="Details" />
            {columns.map((column) => (
              <Table.Th key={column.key}>
                <Group gap={4} wrap="nowrap">
                  {column.label}
                  <ColumnFilter
                    label={column.label}
                    values={values[column.key] ?? []}
                    selected={filters[column.key] ?? []}
                    onChange={(values) => onFilter(column.key, values)}
                    {...(column.format ? { format: column.format } : {})}
                  />
                </Group>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const key = rowKey(row);
            const expanded = open.has(key);
            return (
              <Fragment key={key}>
                <Table.Tr>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      size="sm"
                      aria-expanded={expanded}
                      aria-label={`${expanded ? 'Hide' : 'Show'} details of ${rowName(row)}`}
                      onClick={() => toggle(key)}
                    >
                      <span aria-hidden>{expanded ? '▾' : '▸'}</span>
                    </ActionIcon>
                  </Table.Td>
                  {columns.map((column) => (
                    <Table.Td key={column.key}>{cell(column, row)}</Table.Td>
                  ))}
                </Table.Tr>
                {expanded && (
                  <Table.Tr>
                    <Table.Td />
                    <Table.Td colSpan={columns.length}>{details(row)}</Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
