import React from 'react';
import Category from '@theme-original/DocSidebarItem/Category';
import type CategoryType from '@theme/DocSidebarItem/Category';
import type {WrapperProps} from '@docusaurus/types';
import {sidebarIconStyle} from './sidebarIconStyle';

type Props = WrapperProps<typeof CategoryType>;

/** The sidebar section, with its icon. */
export default function CategoryWrapper(props: Props) {
  return <Category {...props} {...sidebarIconStyle(props.item.customProps)} />;
}
