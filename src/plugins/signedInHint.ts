import type {Plugin} from '@docusaurus/types';
import {signedInHintScript} from '../lib/auth/signedInHint';

/**
 * Marks <html> with the signed-in hint from an inline <head> script, so the first paint already
 * hides what only a visitor should see (the header's "Login") in a browser where someone signed in.
 * It loads nothing: the auth SDK still loads only when a page asks who is there.
 */
export default function signedInHint(): Plugin {
  return {
    name: 'signed-in-hint',
    injectHtmlTags() {
      return {headTags: [{tagName: 'script', innerHTML: signedInHintScript()}]};
    },
  };
}
