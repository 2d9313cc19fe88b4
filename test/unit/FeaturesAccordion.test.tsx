import React from 'react';
import {fireEvent, render, screen} from '@testing-library/react';
import FeaturesAccordion, {MAX_FEATURES, MIN_FEATURES} from '../../src/components/landing/FeaturesAccordion';
import {landingExtras, type AccordionFeature} from '../../src/config';

const {features} = landingExtras.featuresAccordion;

function feature(n: number): AccordionFeature {
  return {title: `Feature ${n}`, description: `What feature ${n} does.`, icon: 'docs'};
}

function expanded() {
  return screen
    .getAllByRole('button')
    .filter((button) => button.getAttribute('aria-expanded') === 'true')
    .map((button) => button.textContent);
}

describe('FeaturesAccordion', () => {
  it('opens the first feature and only the first at first', () => {
    render(<FeaturesAccordion />);
    const buttons = features.map((item) => screen.getByRole('button', {name: item.title}));
    expect(expanded()).toEqual([features[0].title]);
    expect(screen.getByText(features[0].description)).toBeVisible();
    for (const item of features.slice(1)) expect(screen.getByText(item.description)).not.toBeVisible();

    const panel = document.getElementById(buttons[0].getAttribute('aria-controls')!);
    expect(panel).toContainElement(screen.getByText(features[0].description));
    expect(screen.getByRole('region', {name: features[0].title})).toBe(panel);
  });

  it('opening one closes the others; a click on the open one closes it', () => {
    render(<FeaturesAccordion />);
    fireEvent.click(screen.getByRole('button', {name: features[2].title}));
    expect(expanded()).toEqual([features[2].title]);
    expect(screen.getByText(features[2].description)).toBeVisible();
    expect(screen.getByText(features[0].description)).not.toBeVisible();

    fireEvent.click(screen.getByRole('button', {name: features[1].title}));
    expect(expanded()).toEqual([features[1].title]);

    fireEvent.click(screen.getByRole('button', {name: features[1].title}));
    expect(expanded()).toEqual([]);
    expect(screen.getByText(features[1].description)).not.toBeVisible();
  });

  it.each([2, 5])('takes %i features', (count) => {
    render(<FeaturesAccordion features={Array.from({length: count}, (_, index) => feature(index + 1))} />);
    expect(screen.getAllByRole('button')).toHaveLength(count);
  });

  it.each([0, 1, 6])('refuses %i features with a clear error', (count) => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(() =>
        render(<FeaturesAccordion features={Array.from({length: count}, (_, index) => feature(index + 1))} />),
      ).toThrow(`FeaturesAccordion takes ${MIN_FEATURES} to ${MAX_FEATURES} features; it was given ${count}.`);
    } finally {
      consoleError.mockRestore();
    }
  });

  it('ships copy that keeps §5: 2 to 5 features, each title under 5 words', () => {
    expect(features.length).toBeGreaterThanOrEqual(MIN_FEATURES);
    expect(features.length).toBeLessThanOrEqual(MAX_FEATURES);
    for (const item of features) expect(item.title.split(/\s+/).length).toBeLessThan(5);
  });
});
