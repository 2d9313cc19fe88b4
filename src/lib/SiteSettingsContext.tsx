import React, {createContext, useContext, type ReactNode} from 'react';
import type {SiteSettings} from '../buildTime/siteSettings';

// No default: the settings are parsed once at build time (docusaurus.config.ts), so the parser
// never reaches the browser's bundle.
const SiteSettingsContext = createContext<SiteSettings | null>(null);

export function SiteSettingsProvider({value, children}: {value: SiteSettings; children: ReactNode}) {
  return <SiteSettingsContext.Provider value={value}>{children}</SiteSettingsContext.Provider>;
}

export function useSiteSettings(): SiteSettings {
  const settings = useContext(SiteSettingsContext);
  if (!settings) throw new Error('useSiteSettings needs a SiteSettingsProvider above it (src/theme/Root.tsx)');
  return settings;
}
