/**
 * The docs' search bar as a reader uses it: focus it, type, read what the dropdown offers.
 */
import type {Locator, Page} from 'playwright-core';
import {eventually} from './helpers';

/** What the dropdown shows once it has settled on the query typed. */
export interface SearchAnswer {
  /** Each suggestion, in order: its text as shown, the page's title on its last line. */
  suggestions: string[];
  /** The dropdown's text when it has no suggestion (the no-result message and what it offers). */
  empty: string | null;
}

/**
 * An init script (pass it to `context.addInitScript` before the page loads) that counts the search
 * index worker's unanswered calls. The search bar asks the worker once per keystroke and shows only
 * the answer for what the input holds now, so a dropdown that has stopped changing may still be
 * waiting for it: the count tells when the last answer is in. It only watches Comlink's
 * request-and-answer messages (an `id` and a call type), never changing them.
 */
export function watchSearchWorker(): void {
  const calls = new Set(['GET', 'SET', 'APPLY', 'CONSTRUCT', 'ENDPOINT', 'RELEASE']);
  const pending = new Set<string>();
  const watched = new WeakSet<object>();
  (window as unknown as {searchCallsPending: () => number}).searchCallsPending = () => pending.size;
  for (const endpoint of [Worker.prototype, MessagePort.prototype]) {
    const post = endpoint.postMessage as (this: Worker | MessagePort, ...args: unknown[]) => void;
    endpoint.postMessage = function (this: Worker | MessagePort, ...args: unknown[]) {
      const message = args[0] as {id?: unknown; type?: unknown} | null;
      if (message && typeof message.id === 'string' && typeof message.type === 'string' && calls.has(message.type)) {
        pending.add(message.id);
        if (!watched.has(this)) {
          watched.add(this);
          this.addEventListener('message', (event) =>
            pending.delete((event as MessageEvent<{id?: string}>).data?.id ?? ''),
          );
        }
      }
      post.apply(this, args);
    } as typeof endpoint.postMessage;
  }
}

/** Loads the real search bar with Ctrl+K (src/theme/SearchBar.tsx loads it when asked for) and waits until it has focus. */
export async function focusSearchBar(page: Page): Promise<Locator> {
  // Its role changes from textbox to combobox once autocomplete takes it over; the placeholder stays.
  const input = page.getByPlaceholder('Search', {exact: true});
  // The bar loads when the reader reaches for it: Ctrl+K loads it and focuses it once it is there.
  await page.keyboard.press('Control+k');
  await input.waitFor();
  if (!(await input.evaluate((element) => element === document.activeElement))) await page.keyboard.press('Control+k');
  await eventually(
    () => input.evaluate((element) => element === document.activeElement),
    (value) => expect(value).toBe(true),
  );
  return input;
}

/** The dropdown as it is now, or null while it is closed or has not rendered anything. */
async function readDropdown(page: Page): Promise<SearchAnswer | null> {
  const listbox = page.getByRole('listbox');
  if (!(await listbox.isVisible())) return null;
  const suggestions = (await listbox.getByRole('option').allInnerTexts()).map((text) => text.trim());
  const text = (await listbox.innerText()).trim();
  if (suggestions.length === 0 && text === '') return null;
  return {suggestions, empty: suggestions.length === 0 ? text : null};
}

/**
 * Clears the focused search bar, types the query key by key as a reader does (or, `atOnce`, as a
 * paste), and reads the dropdown once the worker has answered every key (the page must have
 * loaded with `watchSearchWorker`).
 */
export async function ask(
  page: Page,
  input: Locator,
  query: string,
  {atOnce = false}: {atOnce?: boolean} = {},
): Promise<SearchAnswer> {
  await input.fill(atOnce ? query : '');
  if (!atOnce) await page.keyboard.type(query);
  // Every answer in, and the dropdown drawn: on a loaded machine it can open a moment after the
  // last answer arrives (and under the dev server, with no index, there may be no call at all).
  await page
    .waitForFunction(
      () => {
        const listbox = document.querySelector('[role="listbox"]') as HTMLElement | null;
        const drawn = listbox !== null && listbox.offsetParent !== null && listbox.innerText.trim() !== '';
        return drawn && (window as unknown as {searchCallsPending: () => number}).searchCallsPending() === 0;
      },
      undefined,
      {timeout: 20_000},
    )
    .catch(() => undefined);
  // The last answer renders in the same task it arrives in; one frame later the dropdown shows it.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  const answer = await readDropdown(page);
  if (!answer) throw new Error(`The search bar showed nothing for "${query}".`);
  return answer;
}

/** The title of the page a suggestion leads to: the last line it shows. */
export function pageTitleOf(suggestion: string): string {
  return suggestion.split('\n').at(-1)!.trim();
}
