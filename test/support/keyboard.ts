/**
 * Keyboard-only checks for the browser tier: which of a page's actions the Tab key reaches,
 * and moving focus to one action by Tab alone. Page code is passed as strings because the test
 * tiers compile without the DOM's types.
 */
import type { Page } from 'playwright-core';

const ACTIONS = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea';

/** The visible actions of the page that Tab never reaches (their text), after one full round. */
export async function actionsTabDoesNotReach(page: Page): Promise<string[]> {
  const total = await page.evaluate<number>(`(() => {
    const actions = [...document.querySelectorAll(${JSON.stringify(ACTIONS)})]
      .filter((element) => element.getClientRects().length > 0);
    actions.forEach((element, index) => element.setAttribute('data-keyboard-check', String(index)));
    document.activeElement?.blur();
    return actions.length;
  })()`);
  const reached = new Set<string>();
  for (let press = 0; press < total + 10 && reached.size < total; press++) {
    await page.keyboard.press('Tab');
    const marker = await page.evaluate<string | null>(
      "document.activeElement?.getAttribute('data-keyboard-check') ?? null",
    );
    if (marker !== null) reached.add(marker);
  }
  return page.evaluate<string[]>(`[...document.querySelectorAll('[data-keyboard-check]')]
    .filter((element) => !${JSON.stringify([...reached])}.includes(element.getAttribute('data-keyboard-check')))
    .map((element) => element.outerHTML.slice(0, 120))`);
}

/** Presses Tab until the focused element's accessible text matches `name`; throws if it never does. */
export async function tabTo(page: Page, name: RegExp, maxPresses = 80): Promise<void> {
  for (let press = 0; press < maxPresses; press++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<string>(`(() => {
      const element = document.activeElement;
      if (!element) return '';
      const label = element.labels?.[0]?.textContent ?? '';
      return [element.getAttribute('aria-label'), label, element.textContent].filter(Boolean).join(' ').trim();
    })()`);
    if (name.test(focused)) return;
  }
  throw new Error(`Tab never reached ${name}`);
}
