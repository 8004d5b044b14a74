import { expect, type Locator, type Page } from '@playwright/test';

/** The manifest panel of the selected capsule: form, YAML, problems, conflict choices. */
export class ManifestPage {
  readonly yaml: Locator;
  readonly problems: Locator;
  readonly save: Locator;
  readonly status: Locator;
  readonly undo: Locator;
  readonly redo: Locator;
  constructor(readonly page: Page) {
    this.yaml = page.getByRole('textbox', { name: 'Manifest YAML' });
    this.problems = page.getByRole('list', { name: 'Manifest problems' });
    this.save = page.getByRole('button', { name: 'Save', exact: true });
    this.status = page.locator('.manifest-status');
    this.undo = page.getByRole('button', { name: 'Undo form edit' });
    this.redo = page.getByRole('button', { name: 'Redo form edit' });
  }

  async openTab(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Manifest' }).click();
  }

  async showYaml(): Promise<void> {
    await this.page.getByRole('tab', { name: 'YAML' }).click();
  }

  async showForm(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Form' }).click();
  }

  /** A form control by its label or accessible name ("Model", "Max turns", "Reply 1 turn 2 text"). */
  field(label: string): Locator {
    return this.page.getByLabel(label, { exact: true });
  }

  /** A section of the form by its title ("Driver and model", "Rehearsal script", …). */
  section(title: string): Locator {
    return this.page.getByRole('group', { name: title, exact: true });
  }

  /** Scrolls the form so a part of it (a section, a reply) is at the top, e.g. for a screenshot. */
  async scrollToTop(part: Locator): Promise<void> {
    await part.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  }

  /** Saves and waits for the file to be written. */
  async saveNow(): Promise<void> {
    await this.save.click();
    await expect(this.status).toHaveText('Saved');
  }

  /** A problem entry that names a line. */
  problemAtLine(line: number): Locator {
    return this.problems.getByRole('button', { name: new RegExp(`^Line ${line}:`) });
  }

  // Driver and model

  /** Picks a driver preset by its label ("Rehearsal (offline, scripted)", "Anthropic", …). */
  async chooseDriver(label: string): Promise<void> {
    await this.field('Driver').selectOption({ label });
  }

  get apiKeySecret(): Locator {
    return this.field('API key secret');
  }

  // Allow lists

  allowEntry(n: number): Locator {
    return this.field(`Allow entry ${n}`);
  }

  /** The note beside an allow entry an edge owns ("edge to worker"). */
  allowOwner(n: number): Locator {
    return this.page.locator('.string-list-item').filter({ has: this.allowEntry(n) }).locator('.owned-by');
  }

  async addAllowEntry(entry: string): Promise<void> {
    await this.field('New allow entry').fill(entry);
    await this.page.getByRole('button', { name: 'Add allow entry', exact: true }).click();
  }

  // Rehearsal script (replies and turns are numbered from 1, as the form shows them)

  reply(n: number): Locator {
    return this.page.getByRole('group', { name: `Reply ${n}`, exact: true });
  }

  turn(reply: number, turn: number): Locator {
    return this.page.getByRole('group', { name: `Reply ${reply} turn ${turn}`, exact: true });
  }

  async addReply(): Promise<void> {
    await this.section('Rehearsal script').getByRole('button', { name: 'Add reply', exact: true }).click();
  }

  async moveReplyUp(n: number): Promise<void> {
    await this.page.getByRole('button', { name: `Move reply ${n} up`, exact: true }).click();
  }

  async addTurn(reply: number): Promise<void> {
    await this.page.getByRole('button', { name: `Add turn to reply ${reply}`, exact: true }).click();
  }

  turnText(reply: number, turn: number): Locator {
    return this.field(`Reply ${reply} turn ${turn} text`);
  }

  /** Adds a delegation to a turn and sends it to `to`, picked from the formation's capsules. */
  async addDelegation(reply: number, turn: number, to: string, text?: string): Promise<void> {
    const calls = this.turn(reply, turn).getByRole('group', { name: new RegExp(`^Reply ${reply} turn ${turn} call \\d+$`) });
    const n = (await calls.count()) + 1;
    await this.page.getByRole('button', { name: `Add delegation to reply ${reply} turn ${turn}`, exact: true }).click();
    await this.delegateTo(reply, turn, n).selectOption(to);
    if (text !== undefined) await this.field(`Reply ${reply} turn ${turn} call ${n} message`).fill(text);
  }

  delegateTo(reply: number, turn: number, call: number): Locator {
    return this.field(`Reply ${reply} turn ${turn} call ${call} delegate to`);
  }
}
