import React, {type ReactElement} from 'react';
import {render} from '@testing-library/react';
import {MemoryRouter} from 'react-router-dom';
import {SnackbarProvider} from '../../src/components/shared/Snackbar';
import {SiteSettingsProvider} from '../../src/lib/SiteSettingsContext';
import {parseSiteSettings, type Env} from '../../src/buildTime/siteSettings';

export interface RenderOptions {
  /** Settings as the root .env would give them. */
  env?: Env;
  /** The URL the router starts on. */
  url?: string;
}

/** Renders a component inside the providers Root.tsx gives every page. */
export function renderWithSite(ui: ReactElement, {env = {}, url = '/'}: RenderOptions = {}) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <SiteSettingsProvider value={parseSiteSettings(env)}>
        <SnackbarProvider>{ui}</SnackbarProvider>
      </SiteSettingsProvider>
    </MemoryRouter>,
  );
}
