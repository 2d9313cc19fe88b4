import React, {type ReactNode} from 'react';
import Link from '@docusaurus/Link';
import type {Page} from '../../../config/api';
import styles from './styles.module.css';

export interface Column<T> {
  label: string;
  cell: (row: T) => ReactNode;
}

export interface DataTableProps<T> {
  /** Names the table for screen readers (the panel's heading says it to everyone else). */
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  /** Marks a row that needs the seller's eye (a removal that failed for good). */
  flagged?: (row: T) => boolean;
  /** Said in place of an empty table. */
  empty: string;
}

/**
 * A table on a wide screen; on a phone each row becomes a card whose cells name their column
 * (`data-label`), so nothing scrolls sideways.
 */
export function DataTable<T>({caption, columns, rows, rowKey, flagged, empty}: DataTableProps<T>) {
  if (rows.length === 0) return <p className={styles.muted}>{empty}</p>;
  return (
    <table className={styles.table}>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.label} scope="col">
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} className={flagged?.(row) ? styles.flagged : undefined}>
            {columns.map((column) => (
              <td key={column.label} data-label={column.label}>
                {/* One box, so that on a phone the cell's content sits beside its label as a whole. */}
                <span>{column.cell(row)}</span>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface PagerProps {
  page: Page<unknown>;
  /** What the list counts: "purchases". */
  noun: string;
  href: (page: number) => string;
}

/** "Page 2 of 5, 93 purchases", with Previous and Next. */
export function Pager({page, noun, href}: PagerProps) {
  const pages = Math.max(1, Math.ceil(page.total / Math.max(1, page.pageSize)));
  return (
    <nav className={styles.pager} aria-label={`Pages of ${noun}`}>
      <span>
        Page {page.page} of {pages}, {page.total} {noun}
      </span>
      <span className={styles.actions}>
        {page.page > 1 && (
          <Link className={styles.pageLink} to={href(page.page - 1)}>
            Previous
          </Link>
        )}
        {page.page < pages && (
          <Link className={styles.pageLink} to={href(page.page + 1)}>
            Next
          </Link>
        )}
      </span>
    </nav>
  );
}
