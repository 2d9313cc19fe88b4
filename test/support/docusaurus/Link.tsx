// Docusaurus's Link needs the whole app's context; in jsdom an anchor with
// the same href is what a visitor's browser would follow. The browser suite
// checks the real Link on the built site.
import React, {type AnchorHTMLAttributes} from 'react';

export default function Link({to, href, ...props}: AnchorHTMLAttributes<HTMLAnchorElement> & {to?: string}) {
  return <a href={to ?? href} {...props} />;
}
