import React from 'react';
import {screen} from '@testing-library/react';
import SuccessContent from '../../src/components/screens/SuccessContent';
import {renderWithSite} from '../support/render';

describe('the success page', () => {
  let fetchSpy: jest.SpyInstance;
  beforeEach(() => {
    fetchSpy = jest.spyOn(globalThis, 'fetch');
  });
  afterEach(() => fetchSpy.mockRestore());

  // The checkout session id left the address before the page rendered (checkoutSession.test.tsx).
  it('thanks the buyer and sends them to the dashboard with the query kept', () => {
    renderWithSite(<SuccessContent />, {url: '/success?utm_source=mail&plan=advanced'});
    expect(screen.getByRole('heading', {name: 'Purchase Successful!'})).toBeInTheDocument();
    expect(screen.getByText(/check your email for the link to the private repository/i)).toBeInTheDocument();
    expect(screen.getByText(/a minute or two/i)).toBeInTheDocument();
    expect(screen.getByRole('link', {name: 'Go to Dashboard'})).toHaveAttribute(
      'href',
      '/dashboard?utm_source=mail&plan=advanced',
    );
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('goes to the bare dashboard when there is no query', () => {
    renderWithSite(<SuccessContent />, {url: '/success'});
    expect(screen.getByRole('link', {name: 'Go to Dashboard'})).toHaveAttribute('href', '/dashboard');
  });
});
