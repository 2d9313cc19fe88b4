import React from 'react';
import {screen, waitFor} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ButtonCheckout from '../../src/components/shared/ButtonCheckout';
import {appConfig} from '../../src/config';
import {UNREACHABLE_MESSAGE} from '../../src/lib/api';
import {initPixel} from '../../src/lib/tracking/pixel';
import {renderWithSite} from '../support/render';
import {startWorkerStub, type WorkerStub} from '../stubs/workerStub';

const advanced = appConfig.plans.find((plan) => plan.name === 'Advanced')!;

describe('ButtonCheckout', () => {
  let worker: WorkerStub;
  let consoleError: jest.SpyInstance;
  beforeAll(async () => {
    worker = await startWorkerStub();
  });
  afterAll(() => worker.close());
  beforeEach(() => {
    worker.requests.length = 0;
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => consoleError.mockRestore());

  function renderButton(props: Partial<React.ComponentProps<typeof ButtonCheckout>> = {}) {
    const redirect = jest.fn();
    renderWithSite(<ButtonCheckout redirect={redirect} {...props} />, {env: {WORKER_URL: worker.url}});
    return {redirect, button: () => screen.getByRole('button', {name: new RegExp(`Get ${appConfig.appName}`)})};
  }

  it('shows a spinner while the session is created, then goes to the returned URL', async () => {
    worker.answer({kind: 'hold'});
    const {redirect, button} = renderButton();
    expect(screen.queryByRole('progressbar')).toBeNull();

    await userEvent.click(button());
    await waitFor(() => expect(worker.requests).toHaveLength(1));
    expect(button()).toBeDisabled();
    expect(button()).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('progressbar', {name: 'Opening checkout'})).toBeInTheDocument();

    worker.release('https://checkout.stripe.com/c/pay/cs_test_b2');
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_b2'));
    await waitFor(() => expect(button()).toBeEnabled());
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('sells the featured Advanced plan by default, and sends the e-mail only when known', async () => {
    worker.answer({kind: 'url', url: 'https://checkout.stripe.com/c/pay/cs_test_c3'});
    const {redirect, button} = renderButton();
    await userEvent.click(button());
    await waitFor(() => expect(redirect).toHaveBeenCalled());
    expect(worker.requests[0]).toEqual({
      priceId: advanced.priceId.production,
      successUrl: `${window.location.origin}/success`,
      cancelUrl: window.location.href,
    });
  });

  it('passes a given price id and e-mail', async () => {
    worker.answer({kind: 'url', url: 'https://checkout.stripe.com/c/pay/cs_test_d4'});
    const {redirect, button} = renderButton({priceId: 'price_given', email: 'ada@example.com'});
    await userEvent.click(button());
    await waitFor(() => expect(redirect).toHaveBeenCalled());
    expect(worker.requests[0]).toMatchObject({priceId: 'price_given', email: 'ada@example.com'});
  });

  it('on failure logs, shows "Error: {message}" with Close for 3 s, and is idle again', async () => {
    worker.answer({kind: 'error', status: 400, body: {error: 'Price ID is required'}});
    const {redirect, button} = renderButton();
    await userEvent.click(button());
    const snack = await screen.findByText('Error: Price ID is required');
    expect(snack).toBeInTheDocument();
    expect(screen.getByRole('button', {name: 'Close'})).toBeInTheDocument();
    expect(button()).toBeEnabled();
    expect(redirect).not.toHaveBeenCalled();
    expect(consoleError).toHaveBeenCalledWith(
      'Checkout failed:',
      expect.objectContaining({message: 'Price ID is required', status: 400}),
    );

    await userEvent.click(screen.getByRole('button', {name: 'Close'}));
    expect(screen.queryByText('Error: Price ID is required')).toBeNull();
  });

  it('says the server is unreachable when nothing answers', async () => {
    const redirect = jest.fn();
    renderWithSite(<ButtonCheckout redirect={redirect} />, {env: {WORKER_URL: 'http://127.0.0.1:9'}});
    await userEvent.click(screen.getByRole('button', {name: new RegExp(`Get ${appConfig.appName}`)}));
    expect(await screen.findByText(`Error: ${UNREACHABLE_MESSAGE}`)).toBeInTheDocument();
    expect(redirect).not.toHaveBeenCalled();
  });

  it('fires CheckoutButtonClicked on the pixel for each click', async () => {
    initPixel('1234567890');
    worker.answer({kind: 'url', url: 'https://checkout.stripe.com/c/pay/cs_test_e5'});
    const {redirect, button} = renderButton();
    await userEvent.click(button());
    await waitFor(() => expect(redirect).toHaveBeenCalledTimes(1));
    await userEvent.click(button());
    await waitFor(() => expect(redirect).toHaveBeenCalledTimes(2));
    expect(window.fbq!.queue.filter((call) => call[1] === 'CheckoutButtonClicked')).toEqual([
      ['trackCustom', 'CheckoutButtonClicked'],
      ['trackCustom', 'CheckoutButtonClicked'],
    ]);
  });
});
