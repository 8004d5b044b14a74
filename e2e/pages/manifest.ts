import { expect, type Locator, type Page } from '@playwright/test';

/** The editor's text, read from CodeMirror's view (the DOM holds only the lines on screen). */
function editorText(content: Element): string {
  const view = (content as Element & { cmTile?: { root?: { view?: { state: { doc: { toString(): string } } } } } })
    .cmTile?.root?.view;
  if (!view) throw new Error('no CodeMirror view on the manifest editor');
  return view.state.doc.toString();
}

/** The manifest panel of the selected capsule: form, YAML, problems, conflict choices. */
export class ManifestPage {
  /** The YAML editor's content (CodeMirror's contenteditable, a textbox named "Manifest YAML"). */
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

  /** The whole text of the YAML editor. */
  async yamlText(): Promise<string> {
    return this.yaml.evaluate(editorText);
  }

  /** Replaces the YAML editor's text, as a paste over a selection of everything would. */
  async setYaml(text: string): Promise<void> {
    await this.yaml.click();
    await this.page.keyboard.press('ControlOrMeta+a');
    await this.page.keyboard.insertText(text);
    await this.page.waitForFunction(
      ([el, want]) =>
        (
          el as Element & { cmTile?: { root?: { view?: { state: { doc: { toString(): string } } } } } }
        ).cmTile?.root?.view?.state.doc.toString() === want,
      [await this.yaml.elementHandle(), text] as const,
    );
  }

  /** Types at the caret, key by key (completion and auto-indent apply as for a person). */
  async typeYaml(text: string): Promise<void> {
    await this.page.keyboard.type(text);
  }

  /** Puts the caret at the end of the first line that contains `text`. */
  async caretAfter(text: string): Promise<void> {
    await this.yaml.evaluate((content, want) => {
      const view = (
        content as Element & {
          cmTile?: {
            root?: { view?: { state: { doc: { toString(): string } }; dispatch(t: unknown): void; focus(): void } };
          };
        }
      ).cmTile?.root?.view;
      if (!view) throw new Error('no CodeMirror view on the manifest editor');
      const doc = view.state.doc.toString();
      const at = doc.indexOf(want);
      if (at < 0) throw new Error(`"${want}" is not in the manifest`);
      const end = doc.indexOf('\n', at);
      view.dispatch({ selection: { anchor: end < 0 ? doc.length : end }, scrollIntoView: true });
      view.focus();
    }, text);
  }

  /** The inline diagnostic marks (underlined tokens) in the editor. */
  get diagnostics(): Locator {
    return this.page.locator('.yaml-editor .cm-lintRange-error');
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
    return this.page
      .locator('.string-list-item')
      .filter({ has: this.allowEntry(n) })
      .locator('.owned-by');
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
    const calls = this.turn(reply, turn).getByRole('group', {
      name: new RegExp(`^Reply ${reply} turn ${turn} call \\d+$`),
    });
    const n = (await calls.count()) + 1;
    await this.page.getByRole('button', { name: `Add delegation to reply ${reply} turn ${turn}`, exact: true }).click();
    await this.delegateTo(reply, turn, n).selectOption(to);
    if (text !== undefined) await this.field(`Reply ${reply} turn ${turn} call ${n} message`).fill(text);
  }

  delegateTo(reply: number, turn: number, call: number): Locator {
    return this.field(`Reply ${reply} turn ${turn} call ${call} delegate to`);
  }
}
