/**
 * The classic theme's TabItem (Docusaurus 3.10, MIT licence), ejected with Tabs for one change:
 * its panel has an id that its tab names in `aria-controls`, and it names its tab in
 * `aria-labelledby`, so a screen reader (and the HTML checker) can tell which tab a panel belongs
 * to. Everything else is the original.
 */
import React from 'react';
import clsx from 'clsx';
import {useTabs} from '@docusaurus/theme-common/internal';
import type {Props} from '@theme/TabItem';
import styles from '@docusaurus/theme-classic/lib/theme/TabItem/styles.module.css';
import {useTabIds} from '../Tabs/tabIds';

export default function TabItem({children, className, value}: Props) {
  const {selectedValue, lazy} = useTabs();
  const ids = useTabIds();
  const isSelected = value === selectedValue;
  if (!isSelected && lazy) return null;
  return (
    <div
      role="tabpanel"
      id={ids.panel(value)}
      aria-labelledby={ids.tab(value)}
      className={clsx(styles.tabItem, className)}
      hidden={!isSelected}>
      {children}
    </div>
  );
}
