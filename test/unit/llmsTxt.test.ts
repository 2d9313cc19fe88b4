/**
 * @jest-environment node
 */
import type {LoadedVersion} from '@docusaurus/plugin-content-docs';
import {renderLlmsTxt} from '../../src/plugins/llmsTxt';

const site = {title: 'Slipway', tagline: 'The starter kit.', url: 'https://slipway.dev'};

function docOf(id: string, title: string, permalink: string, description = '') {
  return {id, title, permalink, description} as LoadedVersion['docs'][number];
}

const version = {
  docs: [
    docOf('get-started', 'Get started', '/docs/', 'Clone and run.'),
    docOf('features/index', 'Features', '/docs/features/', 'What the kit does.'),
    docOf('features/payments', 'Payments and the Stripe webhook', '/docs/features/payments', 'Checkout and webhooks.'),
    docOf('deployment', 'Deployment', '/docs/deployment'),
  ],
  sidebars: {
    docs: [
      {type: 'doc', id: 'get-started'},
      {
        type: 'category',
        label: 'Features',
        link: {type: 'doc', id: 'features/index'},
        items: [{type: 'doc', id: 'features/payments'}],
        collapsed: false,
        collapsible: true,
      },
      {type: 'doc', id: 'deployment'},
      {type: 'link', label: 'Leaderboard', href: '/leaderboard'},
    ],
  },
} as unknown as Pick<LoadedVersion, 'docs' | 'sidebars'>;

it('lists every docs page in sidebar order, by section, with absolute URLs and descriptions', () => {
  expect(renderLlmsTxt(site, version)).toBe(
    [
      '# Slipway',
      '',
      '> The starter kit.',
      '',
      '## Docs',
      '',
      '- [Get started](https://slipway.dev/docs/): Clone and run.',
      '- [Deployment](https://slipway.dev/docs/deployment)',
      '',
      '## Features',
      '',
      '- [Features](https://slipway.dev/docs/features/): What the kit does.',
      '- [Payments and the Stripe webhook](https://slipway.dev/docs/features/payments): Checkout and webhooks.',
      '',
    ].join('\n'),
  );
});

it('refuses a sidebar that names a page that does not exist', () => {
  const broken = {...version, sidebars: {docs: [{type: 'doc', id: 'missing'}]}} as unknown as typeof version;
  expect(() => renderLlmsTxt(site, broken)).toThrow('"missing"');
});
