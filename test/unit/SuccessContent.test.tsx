import React from 'react';
import {screen, within} from '@testing-library/react';
import {afterPurchase} from '../../src/config';
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
    // The welcome e-mail links to the dashboard, never to the repository: the page says so, and the steps there.
    expect(screen.getByText(new RegExp(afterPurchase.email))).toBeInTheDocument();
    expect(screen.queryByText(/link to the private repository/i)).toBeNull();
    const steps = within(screen.getByRole('list', {name: 'Get the code'})).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual(afterPurchase.steps);
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
