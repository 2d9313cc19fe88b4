import {createContext} from 'react';

/**
 * True inside a docs page's live preview of a component. The docs page has its own landmarks
 * (its navbar is the "Main" navigation), so a previewed landmark must not take the same name.
 */
export const InPreview = createContext(false);
