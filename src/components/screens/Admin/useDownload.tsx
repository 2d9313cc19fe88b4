import React from 'react';
import Spinner from '../../shared/Spinner';
import {ActionResult, useAction} from './useAction';
import controls from '../../../css/controls.module.css';

/**
 * Hands a Blob to the browser as a file download. The console's CSVs need the admin's token,
 * which a plain link cannot carry, so they are fetched first and saved from memory.
 */
function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A Download CSV button for a panel's top, and the line that says how it went (placed apart, under
 * the top). `name` is the file's, before its date: `leads` saves `leads-2026-06-30.csv`.
 */
export function useDownload(fetchCsv: () => Promise<Blob>, name: string, done: string) {
  const {busy, outcome, run} = useAction();
  const download = () =>
    void run(async () => {
      save(await fetchCsv(), `${name}-${new Date().toISOString().slice(0, 10)}.csv`);
    }, done);
  return {
    button: (
      <button type="button" className={controls.secondary} onClick={download} disabled={busy} aria-busy={busy}>
        {busy && <Spinner label="Downloading" />}
        Download CSV
      </button>
    ),
    result: <ActionResult outcome={outcome} />,
  };
}
