import React from 'react';
import {fireEvent, screen} from '@testing-library/react';
import FAQ from '../../src/components/landing/FAQ';
import {appConfig, landing} from '../../src/config';
import {renderWithSite} from '../support/render';

describe('FAQ', () => {
  it('shows every question closed, and a click opens only its own answer, a second closes it', () => {
    renderWithSite(<FAQ />);
    const buttons = landing.faq.items.map((item) => screen.getByRole('button', {name: item.question}));
    for (const button of buttons) expect(button).toHaveAttribute('aria-expanded', 'false');
    for (const item of landing.faq.items) expect(screen.queryByText(item.answer)).not.toBeVisible();

    fireEvent.click(buttons[1]);
    expect(buttons[1]).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(landing.faq.items[1].answer)).toBeVisible();
    expect(buttons[0]).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText(landing.faq.items[0].answer)).not.toBeVisible();

    const panel = document.getElementById(buttons[1].getAttribute('aria-controls')!);
    expect(panel).toContainElement(screen.getByText(landing.faq.items[1].answer));

    fireEvent.click(buttons[1]);
    expect(buttons[1]).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText(landing.faq.items[1].answer)).not.toBeVisible();
  });

  it('links to support by e-mail', () => {
    renderWithSite(<FAQ />);
    expect(screen.getByRole('link', {name: /contact support/i})).toHaveAttribute(
      'href',
      `mailto:${appConfig.support.email}`,
    );
  });

  it('shows no support link when no support address is configured', () => {
    renderWithSite(<FAQ supportEmail="" />);
    expect(screen.queryByRole('link', {name: /contact support/i})).toBeNull();
  });
});
