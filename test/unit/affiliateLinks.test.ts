/** @jest-environment node */
import {HandCoins} from 'lucide-static';
import {affiliateLinks} from '../../src/buildTime/affiliateLinks';
import {ROUTES} from '../../src/config';

describe("the docs sidebar's affiliate link", () => {
  it("links the programme's page, with its commission", () => {
    expect(affiliateLinks({commissionPercent: 25, referralDays: 30, disputeDays: 60}, HandCoins)).toEqual([
      expect.objectContaining({
        type: 'link',
        label: 'Affiliates: earn 25% per sale',
        href: ROUTES.affiliates,
      }),
    ]);
  });

  it('is left out when the seller runs no programme', () => {
    expect(affiliateLinks(undefined, HandCoins)).toEqual([]);
  });
});
