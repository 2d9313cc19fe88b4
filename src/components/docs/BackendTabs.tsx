import React, {Children, isValidElement, type ReactElement, type ReactNode} from 'react';
import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
import {BACKEND_GROUP, BACKENDS, DEFAULT_BACKEND, type Backend} from './backends';

interface PanelProps {
  children: ReactNode;
}

/** What a page shows on Firebase; only meaningful inside <BackendTabs>. */
export function Firebase({children}: PanelProps) {
  return <>{children}</>;
}

/** What a page shows on Supabase; only meaningful inside <BackendTabs>. */
export function Supabase({children}: PanelProps) {
  return <>{children}</>;
}

const PANELS = new Map<unknown, Backend>([
  [Firebase, 'firebase'],
  [Supabase, 'supabase'],
]);

/**
 * The synced Firebase/Supabase tabs. Pages write
 * `<BackendTabs><Firebase>…</Firebase><Supabase>…</Supabase></BackendTabs>`
 * and never spell a tab value, so every page stays in the same group.
 */
export default function BackendTabs({children}: {children: ReactNode}) {
  const panels = new Map<Backend, ReactNode>();
  for (const child of Children.toArray(children)) {
    if (!isValidElement(child)) continue;
    const backend = PANELS.get(child.type);
    if (!backend) {
      throw new Error('<BackendTabs> takes only <Firebase> and <Supabase> children.');
    }
    panels.set(backend, (child as ReactElement<PanelProps>).props.children);
  }
  const missing = BACKENDS.filter(({value}) => !panels.has(value)).map(({label}) => label);
  if (missing.length > 0) {
    throw new Error(`<BackendTabs> is missing the ${missing.join(' and ')} panel.`);
  }
  return (
    <Tabs groupId={BACKEND_GROUP} queryString defaultValue={DEFAULT_BACKEND} values={[...BACKENDS]}>
      {BACKENDS.map(({value, label}) => (
        <TabItem key={value} value={value} label={label}>
          {panels.get(value)}
        </TabItem>
      ))}
    </Tabs>
  );
}
