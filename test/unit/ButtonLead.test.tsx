import http from 'node:http';
import React from 'react';
import {screen, waitFor} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ButtonLead from '../../src/components/shared/ButtonLead';
import {landingExtras} from '../../src/config';
import {createApiClient, UNREACHABLE_MESSAGE} from '../../src/lib/api';
import {renderWithSite} from '../support/render';
import {listen, type RunningServer} from '../../scripts/support/listen';

/** The worker's POST /api/leads as the test sets it: an answer per request, or held until released. */
type Answer = {status: number; body: unknown} | 'hold';
let answer: Answer = {status: 201, body: {stored: true}};
const seen: {method: string; url: string; body: unknown}[] = [];
const held: http.ServerResponse[] = [];
let worker: RunningServer;

function send(response: http.ServerResponse, status: number, body: unknown) {
  response.writeHead(status, {'Content-Type': 'application/json'});
  response.end(JSON.stringify(body));
}

beforeAll(async () => {
  worker = await listen(
    http.createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => (raw += chunk));
      request.on('end', () => {
        seen.push({method: request.method!, url: request.url!, body: JSON.parse(raw || 'null')});
        if (answer === 'hold') held.push(response);
        else send(response, answer.status, answer.body);
      });
    }),
  );
});
beforeEach(() => {
  seen.length = 0;
  answer = {status: 201, body: {stored: true}};
});
afterAll(() => worker.close());

function renderForm(props: Partial<React.ComponentProps<typeof ButtonLead>> = {}) {
  renderWithSite(<ButtonLead {...props} />, {env: {WORKER_URL: worker.url}});
  return {
    input: () => screen.getByRole('textbox', {name: landingExtras.lead.label}),
    button: () => screen.getByRole('button', {name: new RegExp(landingExtras.lead.button)}),
  };
}

describe('ButtonLead', () => {
  it('has a labelled e-mail field and a submit button', () => {
    const {input, button} = renderForm();
    expect(input()).toHaveAttribute('type', 'email');
    expect(input()).toBeRequired();
    expect(button()).toHaveAttribute('type', 'submit');
  });

  it('sends nothing while the field is empty', async () => {
    const {button} = renderForm();
    await userEvent.click(button());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toHaveLength(0);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('posts {email} to /api/leads, shows a spinner while it sends, then says the visitor is on the list', async () => {
    answer = 'hold';
    const onSaved = jest.fn();
    const {input, button} = renderForm({onSaved});
    await userEvent.type(input(), ' ada@example.com ');
    await userEvent.click(button());

    await waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toEqual({method: 'POST', url: '/api/leads', body: {email: 'ada@example.com'}});
    expect(button()).toBeDisabled();
    expect(button()).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('progressbar', {name: 'Sending'})).toBeInTheDocument();

    for (const response of held.splice(0)) send(response, 201, {stored: true});
    const message = await screen.findByText(landingExtras.lead.stored);
    expect(message).toHaveAttribute('role', 'status');
    expect(message).toHaveFocus();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(onSaved).toHaveBeenCalledWith({email: 'ada@example.com', stored: true});
  });

  it('says so when the address was already on the list (200)', async () => {
    answer = {status: 200, body: {stored: false, message: 'Already on the list'}};
    const {input, button} = renderForm();
    await userEvent.type(input(), 'ada@example.com');
    await userEvent.click(button());
    expect(await screen.findByText(landingExtras.lead.known)).toBeInTheDocument();
  });

  it("shows the worker's message for an invalid e-mail, keeps what was typed, and sends again", async () => {
    answer = {status: 400, body: {error: 'A valid e-mail address is required'}};
    const {input, button} = renderForm();
    await userEvent.type(input(), 'ada@example');
    await userEvent.click(button());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('A valid e-mail address is required');
    expect(input()).toHaveValue('ada@example');
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    expect(input()).toHaveAccessibleDescription('A valid e-mail address is required');
    expect(button()).toBeEnabled();
    expect(screen.queryByRole('progressbar')).toBeNull();

    answer = {status: 201, body: {stored: true}};
    await userEvent.clear(input());
    await userEvent.type(input(), 'ada@example.com');
    await userEvent.click(button());
    expect(await screen.findByText(landingExtras.lead.stored)).toBeInTheDocument();
    expect(seen.map((request) => request.body)).toEqual([{email: 'ada@example'}, {email: 'ada@example.com'}]);
  });

  it('shows the rate limit message on 429', async () => {
    answer = {
      status: 429,
      body: {error: 'Too many requests. Please wait a moment and try again.', code: 'RATE_LIMITED'},
    };
    const {input, button} = renderForm();
    await userEvent.type(input(), 'ada@example.com');
    await userEvent.click(button());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many requests. Please wait a moment and try again.',
    );
  });

  it('says the server is unreachable when nothing answers', async () => {
    renderWithSite(<ButtonLead />, {env: {WORKER_URL: 'http://127.0.0.1:9'}});
    await userEvent.type(screen.getByRole('textbox', {name: landingExtras.lead.label}), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', {name: new RegExp(landingExtras.lead.button)}));
    expect(await screen.findByRole('alert')).toHaveTextContent(UNREACHABLE_MESSAGE);
  });
});

describe('saveLead', () => {
  it('answers stored: true for a new address (201) and false for a known one (200)', async () => {
    const api = createApiClient({baseUrl: worker.url});
    await expect(api.saveLead('ada@example.com')).resolves.toEqual({stored: true});
    answer = {status: 200, body: {stored: false, message: 'Already on the list'}};
    await expect(api.saveLead('ada@example.com')).resolves.toEqual({stored: false});
  });

  it("throws the worker's message and status on 400", async () => {
    answer = {status: 400, body: {error: 'A valid e-mail address is required'}};
    await expect(createApiClient({baseUrl: worker.url}).saveLead('nope')).rejects.toMatchObject({
      message: 'A valid e-mail address is required',
      status: 400,
    });
  });
});
