import React, {Component, type ReactNode} from 'react';
import {screen} from '@testing-library/react';
import ErrorPageContent from '../../src/theme/ErrorPageContent';
import {renderWithSite} from '../support/render';

/** The shape of Docusaurus's ErrorBoundary: it renders its fallback with the error. */
class Boundary extends Component<{children: ReactNode}, {error: Error | null}> {
  state = {error: null as Error | null};
  static getDerivedStateFromError(error: Error) {
    return {error};
  }
  render() {
    const {error} = this.state;
    return error ? <ErrorPageContent error={error} tryAgain={() => this.setState({error: null})} /> : this.props.children;
  }
}

function Broken(): ReactNode {
  throw new Error('pricing data missing');
}

describe('an unhandled render error', () => {
  it('shows "Something went wrong" with its three ways out, and logs the error', () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      renderWithSite(
        <Boundary>
          <Broken />
        </Boundary>,
      );
      expect(screen.getByRole('heading', {name: 'Something went wrong'})).toBeInTheDocument();
      expect(screen.getByRole('button', {name: 'Refresh'})).toBeInTheDocument();
      expect(screen.getByRole('link', {name: 'Support'})).toBeInTheDocument();
      expect(screen.getByRole('link', {name: 'Home'})).toBeInTheDocument();
      expect(consoleError).toHaveBeenCalledWith('Unhandled page error:', expect.objectContaining({message: 'pricing data missing'}));
    } finally {
      consoleError.mockRestore();
    }
  });
});
