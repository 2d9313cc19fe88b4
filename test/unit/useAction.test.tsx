/**
 * The console's actions: one at a time (a second run while the first is on its way does nothing,
 * before any button has had time to turn disabled), and on a page of several, only the last one's
 * sentence shows.
 */
import React, {type ReactNode} from 'react';
import {act, renderHook} from '@testing-library/react';
import {ActionScope, useAction} from '../../src/components/screens/Admin/useAction';

it('runs one action at a time: a second run while the first is on its way is not sent', async () => {
  const {result} = renderHook(() => useAction());
  let release!: () => void;
  const action = jest.fn(() => new Promise<void>((resolve) => (release = resolve)));
  let runs!: Promise<boolean>[];
  act(() => {
    // Two clicks in one go, as a key held down or a double click on a button that stays.
    runs = [result.current.run(action, 'Done.'), result.current.run(action, 'Done.')];
  });
  expect(action).toHaveBeenCalledTimes(1);
  expect(await runs[1]).toBe(false);
  await act(async () => {
    release();
    expect(await runs[0]).toBe(true);
  });
  expect(result.current.outcome).toEqual({ok: true, text: 'Done.'});
  // Once it has answered, the next one runs.
  await act(async () => {
    const next = result.current.run(() => Promise.resolve(), 'Again.');
    expect(await next).toBe(true);
  });
  expect(action).toHaveBeenCalledTimes(1);
  expect(result.current.outcome).toEqual({ok: true, text: 'Again.'});
});

it('on one page, shows only the sentence of the action that ran last', async () => {
  const wrapper = ({children}: {children: ReactNode}) => <ActionScope>{children}</ActionScope>;
  const {result} = renderHook(() => ({grant: useAction(), refund: useAction()}), {wrapper});
  await act(() => result.current.grant.run(() => Promise.resolve(), 'Access granted to @octocat.'));
  expect(result.current.grant.outcome).toEqual({ok: true, text: 'Access granted to @octocat.'});
  await act(() => result.current.refund.run(() => Promise.resolve(), 'Refunded $99.00 in full.'));
  expect(result.current.grant.outcome).toBeNull();
  expect(result.current.refund.outcome).toEqual({ok: true, text: 'Refunded $99.00 in full.'});
});
