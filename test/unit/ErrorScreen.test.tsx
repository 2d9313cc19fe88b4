import React from 'react';
import {fireEvent, screen} from '@testing-library/react';
import ErrorScreen from '../../src/components/screens/ErrorScreen';
import {appConfig, ROUTES} from '../../src/config';
import {renderWithSite} from '../support/render';

const crispId = '1b3f0c7e-2d4a-4e8b-9c1d-5f6a7b8c9d0e';

describe('the error screen', () => {
  afterEach(() => {
    delete window.$crisp;
  });

  it('offers Refresh, Support and Home', () => {
    renderWithSite(<ErrorScreen />);
    expect(screen.getByRole('heading', {name: 'Something went wrong'})).toBeInTheDocument();
    expect(screen.getByRole('button', {name: 'Refresh'})).toBeInTheDocument();
    expect(screen.getByRole('link', {name: 'Home'})).toHaveAttribute('href', '/');
  });

  it('falls back to an e-mail to support when no chat is configured', () => {
    renderWithSite(<ErrorScreen />);
    const support = screen.getByRole('link', {name: 'Support'});
    expect(support.getAttribute('href')).toMatch(new RegExp(`^mailto:${appConfig.support.email}\\?subject=`));
  });

  it('opens the chat when a chat id is configured', () => {
    window.$crisp = [];
    renderWithSite(<ErrorScreen />, {env: {CRISP_WEBSITE_ID: crispId}});
    expect(screen.queryByRole('link', {name: 'Support'})).toBeNull();
    fireEvent.click(screen.getByRole('button', {name: 'Support'}));
    expect(window.$crisp).toEqual([
      ['do', 'chat:show'],
      ['do', 'chat:open'],
    ]);
  });

  it('offers the e-mail on a page that holds a token, where the chat never loads', () => {
    renderWithSite(<ErrorScreen />, {env: {CRISP_WEBSITE_ID: crispId}, url: ROUTES.dashboard});
    expect(screen.queryByRole('button', {name: 'Support'})).toBeNull();
    expect(screen.getByRole('link', {name: 'Support'}).getAttribute('href')).toMatch(
      new RegExp(`^mailto:${appConfig.support.email}\\?subject=`),
    );
  });

  it('shows no Support action when there is neither a chat nor an address', () => {
    renderWithSite(<ErrorScreen supportEmail="" />);
    expect(screen.queryByText('Support')).toBeNull();
  });
});
