import React from 'react';
import {fireEvent, screen} from '@testing-library/react';
import FAQ from '../../src/components/landing/FAQ';
import {appConfig, landing, type Plan, TEAM_LINK_DAYS, teamFaq} from '../../src/config';
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

  it('says how team access works once a plan is sold for teams, and nothing of teams while none is', () => {
    // The committed config sells one plan for teams: the landing page's FAQ answers it, naming it.
    const sold = (appConfig.plans as readonly Plan[]).filter((plan) => plan.team);
    expect(sold).toHaveLength(1);
    const asked = landing.faq.items.filter((item) => item.question === 'Can I buy it for my team?');
    expect(asked).toHaveLength(1);
    // A team's own price for each seat is the one the answer names.
    const seat = sold[0]!.team!.seatPrice?.price ?? sold[0]!.price;
    expect(asked[0]!.answer).toContain(
      `${sold[0]!.name} (up to ${sold[0]!.team!.maxSeats} developers, $${seat} a seat)`,
    );
    expect(teamFaq((appConfig.plans as readonly Plan[]).map(({team: _, ...plan}) => plan))).toBeNull();

    const [first, second] = appConfig.plans;
    const item = teamFaq([
      {...first!, team: undefined},
      {...second!, team: {maxSeats: 20}},
    ])!;
    renderWithSite(<FAQ items={[item]} />);
    fireEvent.click(screen.getByRole('button', {name: 'Can I buy it for my team?'}));
    const answer = screen.getByText(item.answer);
    expect(answer).toBeVisible();
    // Without a team price, each seat is the plan's price.
    expect(answer.textContent).toContain(
      `${second!.name} (up to 20 developers, $${second!.price} a seat) is sold for teams`,
    );
    expect(answer.textContent).toContain(`for ${TEAM_LINK_DAYS} days`);
    expect(answer.textContent).toMatch(new RegExp(`^Yes: ${second!.name} \\(up to 20`));
    // With no higher plan sold for teams, a team cannot move up: the answer promises no move.
    expect(answer.textContent).not.toContain('higher plan');
    const both = teamFaq([
      {...first!, team: {maxSeats: 5}},
      {...second!, team: {maxSeats: 20}},
    ])!;
    expect(both.answer).toContain(
      `Yes: ${first!.name} (up to 5 developers, $${first!.price} a seat) and ${second!.name} (up to 20 developers, $${second!.price} a seat) are`,
    );
    expect(both.answer).toContain('move the whole team to a higher plan for the difference on each seat');
  });
});
