/**
 * A visit through an affiliate's link (`?via=code`), on whichever page it opens: the code leaves
 * the address bar before the router or any tracking reads it, and the visit is recorded and kept
 * for the checkout (src/lib/affiliateReferral.ts). Only a document's first address is read: an
 * affiliate's link comes from another site, so it always opens a document. With no programme in
 * the config (`affiliates`), nothing is read and `via` stays a parameter like any other.
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import siteConfig from '@generated/docusaurus.config';
import {affiliateProgramme, AFFILIATE_PARAM} from '../config/affiliates';
import type {SiteSettings} from '../buildTime/siteSettings';
import {recordAffiliateVisit} from '../lib/affiliateReferral';

const settings = siteConfig.customFields!.siteSettings as SiteSettings;

if (
  ExecutionEnvironment.canUseDOM &&
  affiliateProgramme() &&
  new URLSearchParams(window.location.search).has(AFFILIATE_PARAM)
) {
  void recordAffiliateVisit(async (code) => {
    // The worker's client is fetched only for such a visit: other pages load none of it here.
    const {createApiClient} = await import('../lib/api');
    return createApiClient({baseUrl: settings.workerUrl}).affiliateVisit({code});
  });
}
