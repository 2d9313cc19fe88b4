import React from 'react';
import Link from '@theme-original/DocSidebarItem/Link';
import type LinkType from '@theme/DocSidebarItem/Link';
import type {WrapperProps} from '@docusaurus/types';
import {sidebarIconStyle} from './sidebarIconStyle';

type Props = WrapperProps<typeof LinkType>;

/** The sidebar link, with its icon. */
export default function LinkWrapper(props: Props) {
  return <Link {...props} {...sidebarIconStyle(props.item.customProps)} />;
}
