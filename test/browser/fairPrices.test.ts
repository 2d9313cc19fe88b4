/**
 * Fair prices worldwide on the local stack (`npm start -- --local --country …`): the pricing
 * section says the visitor's prices are adjusted and shows them, and the checkout charges the
 * same amount, with the discount on its own line and the card's country set to the visitor's.
 */
import {appConfig, countryName, fairPrice} from '../../src/config';
import {formatMoney} from '../../src/config/money';
import {escapeRegExp, plan, uniqueEmail, useLocalSession} from './localSession';

jest.setTimeout(300_000);

const tier = appConfig.fairPrices.tiers[0]!;
const COUNTRY = tier.countries[0]!;
const amount = fairPrice(plan, COUNTRY).amount;
/** As the pricing card writes it: whole dollars bare, cents only when there are some. */
const onCard = amount % 100 === 0 ? `$${amount / 100}` : formatMoney(amount, 'usd');

describe(`a visitor from ${COUNTRY}`, () => {
  const session = useLocalSession({country: COUNTRY});

  it('sees the adjusted prices on the landing page and pays the same amount on the checkout page', async () => {
    const tab = await session.open('/');
    const {page, errors, workerCalls} = tab;
    await session.waitToSee(
      tab,
      page.getByText(`Prices adjusted for ${countryName(COUNTRY)}: ${tier.percentOff}% off`),
    );
    const card = page.getByRole('article', {name: plan.name});
    await card.getByText(onCard).waitFor();
    // The anchor stays the list's, and the look-up was one small GET after load.
    if (plan.priceAnchor !== undefined) await card.locator('s').getByText(`$${plan.priceAnchor}`).waitFor();
    expect(workerCalls.filter((call) => call === 'GET /prices')).toHaveLength(1);

    await card.getByRole('button', {name: `Get ${appConfig.appName} ${plan.name}`}).click();
    await page.waitForURL(/\/checkout\/cs_test_/);
    await page.getByRole('heading', {name: plan.name}).waitFor();
    await page.getByText(`−${formatMoney(plan.price * 100 - amount, 'usd')}`, {exact: false}).waitFor();
    expect(await page.getByLabel('Card country').inputValue()).toBe(COUNTRY);
    const email = uniqueEmail('fair.price');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', {name: `Pay ${formatMoney(amount, 'usd')}`}).click();
    await page.waitForURL(`${session.stack().siteUrl}/success`);
    await page.getByRole('heading', {name: 'Purchase Successful!'}).waitFor();
    await session.stack().waitForLine(new RegExp(`paid ${plan.name} as ${escapeRegExp(email)} .*webhook delivered`));
    expect(errors).toEqual([]);
  });
});
