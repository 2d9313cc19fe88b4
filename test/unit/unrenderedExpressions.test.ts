import {mdxScopeNames, unrenderedExpressions, unrenderedIn, type PageText} from '../support/unrenderedExpressions';

const MDX = `---
title: A page
---

import {appConfig, serviceName as service} from '@site/src/config';
import React, {useState} from 'react';
import type {AppConfig} from '@site/src/config';
import {FREE_PLAN_RELEASE_BATCH} from '@site/worker/src/freePlan';

export const higherPlan = appConfig.plans[1];

\`\`\`ts title="worker/src/example.ts"
import {Hono} from 'hono';
\`\`\`
`;
const scope = mdxScopeNames([MDX]);

describe('unrendered MDX expressions', () => {
  it("reads the names an MDX page imports and exports, not its samples' imports or its types", () => {
    expect([...scope].sort()).toEqual([
      'FREE_PLAN_RELEASE_BATCH',
      'React',
      'appConfig',
      'higherPlan',
      'service',
      'useState',
    ]);
  });

  it('finds what a page shows as written in prose, in inline code and in a link', () => {
    expect(unrenderedIn('The worker on https://api.{appConfig.domainName}/...', scope, false)).toEqual([
      '{appConfig.domainName}',
    ]);
    expect(unrenderedIn("ships with '{appConfig.releases.noticeWithoutUpdates}'", scope, true)).toEqual([
      '{appConfig.releases.noticeWithoutUpdates}',
    ]);
    expect(unrenderedIn('batches of { FREE_PLAN_RELEASE_BATCH } buyers', scope, true)).toEqual([
      '{ FREE_PLAN_RELEASE_BATCH }',
    ]);
    expect(
      unrenderedIn("{higherPlan.name} grants {appConfig.plans[1]?.name} and {service('x')}", scope, false),
    ).toHaveLength(3);
    // A config string typed with the wrong quotes: its template never ran.
    expect(unrenderedIn('Get ${appName} Free', scope, false)).toEqual(['${appName}']);
    // Any name with a property access: a path into an object is never a placeholder.
    expect(unrenderedIn('Hello {user.name}', scope, false)).toEqual(['{user.name}']);
  });

  it("leaves code alone: a template literal in inline code, placeholders, object literals and an API's paths", () => {
    for (const text of [
      '`Get ${appConfig.appName}`',
      'Error: {message}',
      'GET /repos/{owner}/{repo}/collaborators/{username}',
      '/success?sessionId={CHECKOUT_SESSION_ID}',
      '{priceId, successUrl, cancelUrl}',
      '{"error": "Unauthorized"}',
      'discounts: [{coupon}]',
      'each `{name}`',
    ]) {
      expect(unrenderedIn(text, scope, true)).toEqual([]);
    }
  });

  it("reports each page's finding with where it showed, a link's address decoded", () => {
    const pages: PageText[] = [
      {
        url: '/docs/deployment',
        pieces: [
          {text: 'https://api.{appConfig.domainName}/...', code: true},
          {text: 'Nothing here, {owner}.', code: false},
        ],
        hrefs: [
          'https://api.%7BappConfig.domainName%7D/...',
          'https://slipway.dev/docs',
          'https://api.%7BappConfig.domainName%7D/...',
        ],
      },
      {url: '/docs', pieces: [{text: 'Fine.', code: false}], hrefs: ['%E0%A4%A']},
    ];
    expect(unrenderedExpressions(pages, scope)).toEqual([
      {page: '/docs/deployment', where: 'inline code', expression: '{appConfig.domainName}'},
      {page: '/docs/deployment', where: 'href', expression: '{appConfig.domainName}'},
    ]);
  });
});
