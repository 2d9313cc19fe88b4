import {accountName} from '../../src/components/shared/ButtonAccount';

describe("the account button's name (§2)", () => {
  it.each([
    [{displayName: 'Ada Lovelace', email: 'ada@example.com'}, 'Ada Lovelace'],
    [{displayName: '  ', email: 'ada.l@example.com'}, 'ada.l'],
    [{displayName: null, email: 'grace@example.com'}, 'grace'],
    [{displayName: null, email: null}, 'Account'],
    [{displayName: '', email: '@example.com'}, 'Account'],
  ])('%p is shown as %p', (user, name) => {
    expect(accountName(user)).toBe(name);
  });
});
