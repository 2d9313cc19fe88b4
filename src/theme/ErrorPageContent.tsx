import React, {useEffect} from 'react';
import type {Props} from '@theme/Error';
import ErrorScreen from '../components/screens/ErrorScreen';

/**
 * What Docusaurus's error boundaries show when a page throws while rendering:
 * our 'Something went wrong' screen, with the error kept in the console.
 */
export default function ErrorPageContent({error}: Props) {
  useEffect(() => {
    console.error('Unhandled page error:', error);
  }, [error]);
  return <ErrorScreen />;
}
