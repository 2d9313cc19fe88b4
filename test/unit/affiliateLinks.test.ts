/** @jest-environment node */
import {HandCoins} from 'lucide-static';
import {affiliateLinks} from '../../src/buildTime/affiliateLinks';

describe("the docs sidebar's affiliate link", () => {
  it("links the seller's own programme, with its commission", () => {
    expect(affiliateLinks({url: 'https://yours.example/affiliates', commissionPercent: 25}, HandCoins)).toEqual([
      expect.objectContaining({
        type: 'link',
        label: 'Affiliates: earn 25% per sale',
        href: 'https://yours.example/affiliates',
      }),
    ]);
  });

  it('is left out when the seller runs no programme', () => {
    expect(affiliateLinks(undefined, HandCoins)).toEqual([]);
  });
});
