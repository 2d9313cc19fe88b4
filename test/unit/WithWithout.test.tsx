import React from 'react';
import {render, screen, within} from '@testing-library/react';
import WithWithout from '../../src/components/landing/WithWithout';
import {landingExtras} from '../../src/config';

describe('WithWithout', () => {
  it('lists the pains under "Without" and the gains under "With", each in its own column', () => {
    render(<WithWithout />);
    const {without, with: gains} = landingExtras.withWithout;
    for (const column of [without, gains]) {
      const heading = screen.getByRole('heading', {level: 3, name: column.title});
      const list = within(heading.parentElement!).getByRole('list');
      expect(
        within(list)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(column.items);
    }
  });

  it('takes its copy as props', () => {
    render(
      <WithWithout
        title="Before and after"
        without={{title: 'Before', items: ['Slow']}}
        with={{title: 'After', items: ['Fast']}}
      />,
    );
    expect(screen.getByRole('heading', {level: 2, name: 'Before and after'})).toBeInTheDocument();
    expect(screen.getByRole('heading', {name: 'Before'}).parentElement).toHaveTextContent('Slow');
    expect(screen.getByRole('heading', {name: 'After'}).parentElement).toHaveTextContent('Fast');
  });
});
