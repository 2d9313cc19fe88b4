import React from 'react';
import {render, screen} from '@testing-library/react';
import LandingSection from '../../src/components/landing/LandingSection';

describe('LandingSection', () => {
  it('is a region named by its h2 title, with the kicker above and the subtitle and content below', () => {
    render(
      <LandingSection
        id="pricing"
        titleId="pricing-title"
        kicker="Pricing"
        title="Pay once"
        subtitle="Yours forever"
        after={<hr />}>
        <p>The plans</p>
      </LandingSection>,
    );
    const section = screen.getByRole('region', {name: 'Pay once'});
    expect(section).toHaveAttribute('id', 'pricing');
    expect(section).toHaveAttribute('aria-labelledby', 'pricing-title');
    expect(screen.getByRole('heading', {level: 2, name: 'Pay once'})).toHaveAttribute('id', 'pricing-title');
    const column = section.firstElementChild!;
    expect([...column.children].map((child) => child.textContent)).toEqual([
      'Pricing',
      'Pay once',
      'Yours forever',
      'The plans',
    ]);
    // What comes after the column stays inside the section.
    expect(section.lastElementChild).toBe(screen.getByRole('separator'));
  });

  it('generates the title id when none is given, and leaves out what is not given', () => {
    render(<LandingSection title="Features" />);
    const section = screen.getByRole('region', {name: 'Features'});
    const heading = screen.getByRole('heading', {level: 2, name: 'Features'});
    expect(heading.id).toMatch(/-title$/);
    expect(section).toHaveAttribute('aria-labelledby', heading.id);
    expect(section).not.toHaveAttribute('id');
    expect(section.firstElementChild!.children).toHaveLength(1);
  });

  it('adds the section stylesheet classes, by part, to the frame', () => {
    render(
      <LandingSection
        title="Features"
        subtitle="All of them"
        classNames={{section: 'own-section', inner: 'own-inner', title: 'own-title', subtitle: 'own-subtitle'}}
      />,
    );
    const section = screen.getByRole('region', {name: 'Features'});
    expect(section).toHaveClass('own-section');
    expect(section.firstElementChild).toHaveClass('inner', 'own-inner');
    expect(screen.getByRole('heading', {name: 'Features'})).toHaveClass('title', 'own-title');
    expect(screen.getByText('All of them')).toHaveClass('subtitle', 'own-subtitle');
  });
});
