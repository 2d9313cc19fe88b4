import React from 'react';
import {act, fireEvent, screen} from '@testing-library/react';
import FeaturesListicle, {END_MARKER_THRESHOLD, ROTATION_MS} from '../../src/components/landing/FeaturesListicle';
import {renderWithSite} from '../support/render';

/** jsdom has no IntersectionObserver; this one lets a test say what is visible. */
class ControlledObserver {
  static instances: ControlledObserver[] = [];
  readonly targets: Element[] = [];
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    ControlledObserver.instances.push(this);
  }
  observe(target: Element) {
    this.targets.push(target);
  }
  disconnect() {
    this.targets.length = 0;
  }
  unobserve() {}
  takeRecords() {
    return [];
  }
  show(ratio: number) {
    const entries = this.targets.map(
      (target) => ({target, isIntersecting: ratio > 0, intersectionRatio: ratio}) as IntersectionObserverEntry,
    );
    act(() => this.callback(entries, this as unknown as IntersectionObserver));
  }
}

function selectedTab() {
  return screen.getAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true')?.textContent;
}

function wait(ms: number) {
  act(() => {
    jest.advanceTimersByTime(ms);
  });
}

describe('FeaturesListicle', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    ControlledObserver.instances = [];
    Object.assign(window, {IntersectionObserver: ControlledObserver});
  });
  afterEach(() => jest.useRealTimers());

  it('starts on Emails, moves to Payments after 5 s and wraps back', () => {
    renderWithSite(<FeaturesListicle />);
    expect(selectedTab()).toBe('Emails');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('DNS setup to avoid spam folder');
    wait(ROTATION_MS - 1);
    expect(selectedTab()).toBe('Emails');
    wait(1);
    expect(selectedTab()).toBe('Payments');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Create checkout sessions');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Time saved: 2 hours');
    wait(ROTATION_MS);
    expect(selectedTab()).toBe('Emails');
  });

  it('stops rotating for good once a tab is clicked', () => {
    renderWithSite(<FeaturesListicle />);
    fireEvent.click(screen.getByRole('tab', {name: 'Payments'}));
    expect(selectedTab()).toBe('Payments');
    wait(ROTATION_MS * 6);
    expect(selectedTab()).toBe('Payments');
  });

  it('stops rotating when the end marker is half visible, not before', () => {
    renderWithSite(<FeaturesListicle />);
    const [observer] = ControlledObserver.instances;
    expect(observer.options.threshold).toBe(END_MARKER_THRESHOLD);
    expect(observer.targets).toEqual([screen.getByTestId('features-end')]);

    observer.show(0.2);
    wait(ROTATION_MS);
    expect(selectedTab()).toBe('Payments');

    observer.show(0.5);
    wait(ROTATION_MS * 4);
    expect(selectedTab()).toBe('Payments');
  });

  it('moves between tabs with the arrow keys', () => {
    renderWithSite(<FeaturesListicle />);
    fireEvent.keyDown(screen.getByRole('tab', {name: 'Emails'}), {key: 'ArrowRight'});
    expect(selectedTab()).toBe('Payments');
    expect(screen.getByRole('tab', {name: 'Payments'})).toHaveFocus();
    fireEvent.keyDown(screen.getByRole('tab', {name: 'Payments'}), {key: 'ArrowRight'});
    expect(selectedTab()).toBe('Emails');
  });
});
