/**
 * The classic theme's Tabs (Docusaurus 3.10, MIT licence), ejected for one
 * change: it no longer remounts after hydration. The stock component keys
 * itself on `useIsBrowser()` (a workaround for facebook/docusaurus#5653, from
 * before React 18), so every tab group, and every code block and preview in
 * it, was thrown away and drawn again while the page started, with Prism
 * loaded just for that. The remount is not needed: the tab a reader chose
 * (query string or storage) is applied by a layout effect in
 * `useTabsContextValue`, after the hydration render that matches the server's
 * HTML, and React updates the DOM for it. And each tab names its panel
 * (`aria-controls`, with the ids of `tabIds.ts` that TabItem uses too), which
 * the original leaves out. Everything else is the original.
 */
import React, {useId, useMemo, type KeyboardEvent, type MouseEvent, type ReactNode} from 'react';
import clsx from 'clsx';
import {ThemeClassNames} from '@docusaurus/theme-common';
import {
  sanitizeTabsChildren,
  TabsProvider,
  useScrollPositionBlocker,
  useTabs,
  useTabsContextValue,
} from '@docusaurus/theme-common/internal';
import type {Props} from '@theme/Tabs';
import styles from '@docusaurus/theme-classic/lib/theme/Tabs/styles.module.css';
import {TabIdsContext, tabIdsFrom, useTabIds} from './tabIds';

function TabList({className}: {className?: string}) {
  const {selectedValue, selectValue, tabValues, block} = useTabs();
  const tabRefs: (HTMLLIElement | null)[] = [];
  const {blockElementScrollPositionUntilNextRender} = useScrollPositionBlocker();
  const ids = useTabIds();

  const handleTabChange = (event: KeyboardEvent<HTMLLIElement> | MouseEvent<HTMLLIElement>) => {
    const newTab = event.currentTarget;
    const newTabValue = tabValues[tabRefs.indexOf(newTab)]!.value;
    if (newTabValue !== selectedValue) {
      blockElementScrollPositionUntilNextRender(newTab);
      selectValue(newTabValue);
    }
  };

  const handleKeydown = (event: KeyboardEvent<HTMLLIElement>) => {
    let focusElement: HTMLLIElement | null = null;
    switch (event.key) {
      case 'Enter':
        handleTabChange(event);
        break;
      case 'ArrowRight': {
        const nextTab = tabRefs.indexOf(event.currentTarget) + 1;
        focusElement = tabRefs[nextTab] ?? tabRefs[0]!;
        break;
      }
      case 'ArrowLeft': {
        const prevTab = tabRefs.indexOf(event.currentTarget) - 1;
        focusElement = tabRefs[prevTab] ?? tabRefs[tabRefs.length - 1]!;
        break;
      }
      default:
        break;
    }
    focusElement?.focus();
  };

  return (
    <ul role="tablist" aria-orientation="horizontal" className={clsx('tabs', {'tabs--block': block}, className)}>
      {tabValues.map(({value, label, attributes}) => (
        <li
          role="tab"
          id={ids.tab(value)}
          aria-controls={ids.panel(value)}
          tabIndex={selectedValue === value ? 0 : -1}
          aria-selected={selectedValue === value}
          key={value}
          ref={(tab) => {
            tabRefs.push(tab);
          }}
          onKeyDown={handleKeydown}
          onClick={handleTabChange}
          {...attributes}
          className={clsx('tabs__item', styles.tabItem, attributes?.className as string, {
            'tabs__item--active': selectedValue === value,
          })}>
          {label ?? value}
        </li>
      ))}
    </ul>
  );
}

function TabsContainer({className, children}: {className?: string; children: ReactNode}) {
  return (
    <div className={clsx(ThemeClassNames.tabs.container, 'tabs-container', styles.tabList)}>
      {/* As in the original, className goes on the tab list, not on the container. */}
      <TabList className={className} />
      <div className="margin-top--md">{children}</div>
    </div>
  );
}

export default function Tabs(props: Props) {
  const value = useTabsContextValue(props);
  const base = useId();
  const ids = useMemo(() => tabIdsFrom(base), [base]);
  return (
    <TabsProvider value={value}>
      <TabIdsContext.Provider value={ids}>
        <TabsContainer className={props.className}>{sanitizeTabsChildren(props.children)}</TabsContainer>
      </TabIdsContext.Provider>
    </TabsProvider>
  );
}
