import type { Locator, Page } from '@playwright/test';

/** The editor's text, read from CodeMirror's view (the DOM holds only the lines on screen). */
function editorText(content: Element): string {
  const view = (content as Element & { cmTile?: { root?: { view?: { state: { doc: { toString(): string } } } } } }).cmTile?.root?.view;
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
  constructor(readonly page: Page) {
    this.yaml = page.getByRole('textbox', { name: 'Manifest YAML' });
    this.problems = page.getByRole('list', { name: 'Manifest problems' });
    this.save = page.getByRole('button', { name: 'Save', exact: true });
    this.status = page.locator('.manifest-status');
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
    await this.page.waitForFunction(([el, want]) => (el as Element & { cmTile?: { root?: { view?: { state: { doc: { toString(): string } } } } } }).cmTile?.root?.view?.state.doc.toString() === want, [await this.yaml.elementHandle(), text] as const);
  }

  /** Types at the caret, key by key (completion and auto-indent apply as for a person). */
  async typeYaml(text: string): Promise<void> {
    await this.page.keyboard.type(text);
  }

  /** Puts the caret at the end of the first line that contains `text`. */
  async caretAfter(text: string): Promise<void> {
    await this.yaml.evaluate((content, want) => {
      const view = (content as Element & { cmTile?: { root?: { view?: { state: { doc: { toString(): string } }; dispatch(t: unknown): void; focus(): void } } } }).cmTile?.root?.view;
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

  field(label: string): Locator {
    return this.page.getByLabel(label, { exact: true });
  }

  /** A problem entry that names a line. */
  problemAtLine(line: number): Locator {
    return this.problems.getByRole('button', { name: new RegExp(`^Line ${line}:`) });
  }
}
