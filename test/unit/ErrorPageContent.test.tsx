import React, {type ReactNode} from 'react';
import ErrorBoundary from '@docusaurus/ErrorBoundary';
import {screen} from '@testing-library/react';
import ErrorPageContent from '../../src/theme/ErrorPageContent';
import {renderWithSite} from '../support/render';

function Broken(): ReactNode {
  throw new Error('pricing data missing');
}

describe('an unhandled render error', () => {
  it('shows "Something went wrong" with its three ways out, and logs the error', () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      renderWithSite(
        <ErrorBoundary fallback={(params) => <ErrorPageContent {...params} />}>
          <Broken />
        </ErrorBoundary>,
      );
      expect(screen.getByRole('heading', {name: 'Something went wrong'})).toBeInTheDocument();
      expect(screen.getByRole('button', {name: 'Refresh'})).toBeInTheDocument();
      expect(screen.getByRole('link', {name: 'Support'})).toBeInTheDocument();
      expect(screen.getByRole('link', {name: 'Home'})).toBeInTheDocument();
      expect(consoleError).toHaveBeenCalledWith(
        'Unhandled page error:',
        expect.objectContaining({message: 'pricing data missing'}),
      );
    } finally {
      consoleError.mockRestore();
    }
  });
});
