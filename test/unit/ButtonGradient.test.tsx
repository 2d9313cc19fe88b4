import React from 'react';
import {render, screen} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ButtonGradient from '../../src/components/shared/ButtonGradient';

describe('ButtonGradient', () => {
  it('is a button that answers clicks', async () => {
    const onClick = jest.fn();
    render(<ButtonGradient onClick={onClick}>Get started</ButtonGradient>);
    const button = screen.getByRole('button', {name: 'Get started'});
    expect(button).toHaveAttribute('type', 'button');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('submits its form when its type is submit', async () => {
    const onSubmit = jest.fn((event: React.FormEvent) => event.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <ButtonGradient type="submit">Send it</ButtonGradient>
      </form>,
    );
    await userEvent.click(screen.getByRole('button', {name: 'Send it'}));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('ignores clicks when disabled', async () => {
    const onClick = jest.fn();
    render(
      <ButtonGradient onClick={onClick} disabled>
        Get started
      </ButtonGradient>,
    );
    const button = screen.getByRole('button', {name: 'Get started'});
    expect(button).toBeDisabled();
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('is a link to `to` when given one', () => {
    render(<ButtonGradient to="/#pricing">See pricing</ButtonGradient>);
    expect(screen.getByRole('link', {name: 'See pricing'})).toHaveAttribute('href', '/#pricing');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
