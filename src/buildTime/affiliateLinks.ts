import {type AppConfig, ROUTES} from '../config';
import {sidebarIcon} from './sidebarIcon';

/**
 * The docs sidebar's link to the affiliate programme's page: one link when the config runs the
 * programme (`affiliates`), none when it does not.
 */
export function affiliateLinks(programme: AppConfig['affiliates'], icon: string) {
  if (!programme) return [];
  return [
    {
      type: 'link' as const,
      label: `Affiliates: earn ${programme.commissionPercent}% per sale`,
      href: ROUTES.affiliates,
      customProps: sidebarIcon(icon),
    },
  ];
}
