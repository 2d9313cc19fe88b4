import React from 'react';
import {fireEvent, screen, within} from '@testing-library/react';
import Header, {headerLinks} from '../../src/components/landing/Header';
import {renderWithSite} from '../support/render';
import {appConfig} from '../../src/config';

describe('the header', () => {
  it('links to the three sections, the login page and checkout', () => {
    renderWithSite(<Header />);
    const nav = screen.getByRole('navigation', {name: 'Main'});
    expect(headerLinks.map((link) => within(nav).getByRole('link', {name: link.label}).getAttribute('href'))).toEqual([
      '/#pricing',
      '/#features',
      '/#faq',
    ]);
    expect(within(nav).getByRole('link', {name: 'Login'})).toHaveAttribute('href', '/signin');
    expect(within(nav).getByRole('button', {name: `Get ${appConfig.appName}`})).toBeInTheDocument();
  });

  it('opens and closes the mobile menu', () => {
    renderWithSite(<Header />);
    const burger = screen.getByRole('button', {name: 'Open main menu'});
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', {name: 'Mobile'})).toBeNull();

    fireEvent.click(burger);
    expect(burger).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('navigation', {name: 'Mobile'});
    expect(within(menu).getByRole('link', {name: 'FAQ'})).toHaveAttribute('href', '/#faq');

    fireEvent.click(screen.getByRole('button', {name: 'Close menu'}));
    expect(screen.queryByRole('navigation', {name: 'Mobile'})).toBeNull();
  });
});
