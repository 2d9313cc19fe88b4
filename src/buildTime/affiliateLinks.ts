import type {AppConfig} from '../config';
import {sidebarIcon} from './sidebarIcon';

/**
 * The docs sidebar's link to the seller's own affiliate programme: one link when the config names
 * a programme, none when it does not (the kit ships without one, so a clone links nowhere else).
 */
export function affiliateLinks(affiliate: AppConfig['affiliate'], icon: string) {
  if (!affiliate) return [];
  return [
    {
      type: 'link' as const,
      label: `Affiliates: earn ${affiliate.commissionPercent}% per sale`,
      href: affiliate.url,
      customProps: sidebarIcon(icon),
    },
  ];
}
