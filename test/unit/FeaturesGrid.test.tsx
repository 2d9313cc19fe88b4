import React from 'react';
import {render, screen, within} from '@testing-library/react';
import FeaturesGrid from '../../src/components/landing/FeaturesGrid';
import {landingExtras, type GridFeature} from '../../src/config';

const {features} = landingExtras.featuresGrid;

/** The card of a feature, found by its heading. */
function card(title: string) {
  return screen.getByRole('heading', {name: title}).closest('li')!;
}

describe('FeaturesGrid', () => {
  it('shows one card per feature, with its title and description', () => {
    render(<FeaturesGrid />);
    expect(screen.getByRole('heading', {level: 2, name: landingExtras.featuresGrid.title})).toBeInTheDocument();
    const cards = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(cards).toHaveLength(features.length);
    for (const feature of features) expect(card(feature.title)).toHaveTextContent(feature.description);
  });

  it('spans each card over 1, 2 or 3 columns as its span says, 1 by default', () => {
    const given: GridFeature[] = [
      {title: 'Wide', description: 'Two columns.', icon: 'seo', span: 2},
      {title: 'Narrow', description: 'One column.', icon: 'docs'},
      {title: 'Full', description: 'The whole row.', icon: 'worker', span: 3},
      {title: 'Single', description: 'Said so.', icon: 'database', span: 1},
    ];
    render(<FeaturesGrid features={given} />);
    expect(card('Wide')).toHaveClass('span2');
    expect(card('Narrow')).toHaveClass('span1');
    expect(card('Full')).toHaveClass('span3');
    expect(card('Single')).toHaveClass('span1');
  });

  it.each([0, 4, 1.5])('refuses a span of %p with a clear error', (span) => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const features = [{title: 'Too wide', description: 'No.', icon: 'seo', span} as unknown as GridFeature];
      expect(() => render(<FeaturesGrid features={features} />)).toThrow(
        `FeaturesGrid: "Too wide" spans ${span} columns; a card spans 1 to 3.`,
      );
    } finally {
      consoleError.mockRestore();
    }
  });

  it('ships copy that keeps §5 and §9: titles under 5 words, spans of 1 to 3', () => {
    for (const feature of features) {
      expect(feature.title.split(/\s+/).length).toBeLessThan(5);
      expect([undefined, 1, 2, 3]).toContain((feature as GridFeature).span);
    }
  });
});
