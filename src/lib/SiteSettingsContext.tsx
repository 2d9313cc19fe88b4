import React, {createContext, useContext, type ReactNode} from 'react';
import {parseSiteSettings, type SiteSettings} from './siteSettings';

const SiteSettingsContext = createContext<SiteSettings>(parseSiteSettings({}));

export function SiteSettingsProvider({value, children}: {value: SiteSettings; children: ReactNode}) {
  return <SiteSettingsContext.Provider value={value}>{children}</SiteSettingsContext.Provider>;
}

export function useSiteSettings(): SiteSettings {
  return useContext(SiteSettingsContext);
}
