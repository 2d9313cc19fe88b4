import React from 'react';
import {act, fireEvent, render, screen} from '@testing-library/react';
import {SNACKBAR_DURATION_MS, SnackbarProvider, useSnackbar} from '../../src/components/shared/Snackbar';

function Trigger({text}: {text: string}) {
  const snackbar = useSnackbar();
  return (
    <button type="button" onClick={() => snackbar.show(text)}>
      Show {text}
    </button>
  );
}

describe('the snack bar', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('shows a message with Close for 3000 ms', () => {
    render(
      <SnackbarProvider>
        <Trigger text="Error: boom" />
      </SnackbarProvider>,
    );
    fireEvent.click(screen.getByRole('button', {name: 'Show Error: boom'}));
    expect(screen.getByRole('status')).toHaveTextContent('Error: boom');
    expect(screen.getByRole('button', {name: 'Close'})).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(SNACKBAR_DURATION_MS - 1));
    expect(screen.getByText('Error: boom')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByText('Error: boom')).toBeNull();
    expect(SNACKBAR_DURATION_MS).toBe(3000);
  });

  it('gives a new message its own full 3000 ms', () => {
    render(
      <SnackbarProvider>
        <Trigger text="first" />
        <Trigger text="second" />
      </SnackbarProvider>,
    );
    fireEvent.click(screen.getByRole('button', {name: 'Show first'}));
    act(() => jest.advanceTimersByTime(2000));
    fireEvent.click(screen.getByRole('button', {name: 'Show second'}));
    expect(screen.queryByText('first')).toBeNull();
    act(() => jest.advanceTimersByTime(2000));
    expect(screen.getByText('second')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.queryByText('second')).toBeNull();
  });

  it('closes at once on Close', () => {
    render(
      <SnackbarProvider>
        <Trigger text="bye" />
      </SnackbarProvider>,
    );
    fireEvent.click(screen.getByRole('button', {name: 'Show bye'}));
    fireEvent.click(screen.getByRole('button', {name: 'Close'}));
    expect(screen.queryByText('bye')).toBeNull();
  });
});
