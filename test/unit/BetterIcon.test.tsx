import React from 'react';
import {render, screen} from '@testing-library/react';
import {Mail} from 'lucide-react';
import BetterIcon from '../../src/components/shared/BetterIcon';

describe('BetterIcon', () => {
  it('frames its icon and, without a label, hides it from screen readers', () => {
    const {container} = render(
      <BetterIcon>
        <Mail />
      </BetterIcon>,
    );
    const frame = container.firstElementChild!;
    expect(frame).toHaveAttribute('aria-hidden', 'true');
    expect(frame.querySelector('svg')).not.toBeNull();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('is an image named by its label when given one', () => {
    render(
      <BetterIcon label="E-mails">
        <Mail />
      </BetterIcon>,
    );
    expect(screen.getByRole('img', {name: 'E-mails'})).toBeInTheDocument();
  });
});
