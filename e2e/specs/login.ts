/**
 * Fills WordPress's login form. WordPress focuses the username field and
 * selects its text 200 ms after the login page loads (wp-login.php's
 * wp_attempt_focus()). Playwright's fill() focuses its field and then
 * inserts the text into whatever has the focus, so when that timer fires in
 * between, the password replaces the username and the password field stays
 * empty; the browser then refuses to submit the form (both fields are
 * required) and the test waits for a navigation that never comes. Session
 * 17's clean-clone run lost two widget specs to it (3.2 min each). Once both
 * fields hold what was typed, the timer can only move the focus.
 */
import type { Page } from '@playwright/test';

export async function fillLogin(page: Page, username: string, password: string): Promise<void> {
  const user = page.locator('#user_login');
  const pass = page.locator('#user_pass');
  for (let tries = 1; ; tries++) {
    await user.fill(username);
    await pass.fill(password);
    if ((await user.inputValue()) === username && (await pass.inputValue()) === password) {
      return;
    }
    if (tries === 5) {
      throw new Error(`the login form never held both the username and the password (${tries} tries)`);
    }
  }
}
