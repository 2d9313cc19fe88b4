// Docusaurus's ErrorBoundary, in its shape: on a render error it shows `fallback` with the error
// and a way to try again. The browser suite runs the real one on the built site.
import {Component, type ReactNode} from 'react';

interface Props {
  fallback?: (params: {error: Error; tryAgain: () => void}) => ReactNode;
  children: ReactNode;
}

export default class ErrorBoundary extends Component<Props, {error: Error | null}> {
  state = {error: null as Error | null};
  static getDerivedStateFromError(error: Error) {
    return {error};
  }
  render() {
    const {error} = this.state;
    if (!error) return this.props.children;
    return this.props.fallback?.({error, tryAgain: () => this.setState({error: null})}) ?? null;
  }
}
