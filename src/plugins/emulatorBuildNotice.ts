import type {Plugin} from '@docusaurus/types';
import {serviceName} from '../config';
import type {SiteSettings} from '../buildTime/siteSettings';

/**
 * After a build that signs in against the Firebase Auth emulator, one line saying so: fine for
 * tests and local previews (`npm start -- --built`), but a deployed site would send its buyers to
 * an emulator on their own machine. A plugin's `postBuild`, once a build: `docusaurus build` reads
 * docusaurus.config.ts twice (for its locales, then for the site), so a line printed there came
 * out twice.
 */
export default function emulatorBuildNotice(settings: SiteSettings): Plugin {
  return {
    name: 'emulator-build-notice',
    postBuild() {
      const {provider, firebaseEmulatorHost} = settings.auth;
      if (provider !== 'firebase' || !firebaseEmulatorHost) return;
      console.warn(
        `[${serviceName}] This build signs in against the Firebase Auth emulator at ${firebaseEmulatorHost}. ` +
          'Set FIREBASE_API_KEY (and the rest of the Firebase web config) in .env before deploying.',
      );
    },
  };
}
