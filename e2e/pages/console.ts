import type { Locator, Page } from '@playwright/test';

/** The console: pick a capsule, hold a conversation with it, send data and files, answer its questions. */
export class ConsolePage {
  readonly region: Locator;
  readonly target: Locator;
  readonly message: Locator;
  readonly send: Locator;
  readonly entries: Locator;
  /** The messages of the open conversation. */
  readonly log: Locator;
  /** The A2A contextId of the open conversation ("context ctx_…", or "new context"). */
  readonly context: Locator;
  readonly newConversation: Locator;
  /** The picker of the capsule's conversations (shown once it has one). */
  readonly conversation: Locator;
  /** Opens and closes the data field. */
  readonly dataToggle: Locator;
  readonly data: Locator;
  /** Where the data field's problems show (not JSON, or the capsule's accepts schema). */
  readonly dataProblems: Locator;
  readonly attach: Locator;
  readonly attached: Locator;
  constructor(readonly page: Page) {
    const region = (this.region = page.getByRole('region', { name: 'Console' }));
    this.target = region.getByRole('combobox', { name: 'Capsule' });
    this.message = region.getByRole('textbox', { name: 'Message' });
    this.send = region.getByRole('button', { name: 'Send', exact: true });
    this.entries = region.getByTestId('console-entry');
    this.log = region.getByRole('list', { name: 'Conversation' });
    this.context = region.getByTestId('console-context');
    this.newConversation = region.getByRole('button', { name: 'New conversation' });
    this.conversation = region.getByRole('combobox', { name: 'Conversation' });
    this.dataToggle = region.getByRole('button', { name: 'Data', exact: true });
    this.data = region.getByRole('textbox', { name: /^Data \(JSON\)/ });
    this.dataProblems = region.getByRole('list', { name: 'Data problems' });
    this.attach = region.getByLabel('Attach file');
    this.attached = region.getByRole('list', { name: 'Attached files' });
  }

  async sendTo(capsuleId: string, text: string): Promise<Locator> {
    await this.target.selectOption(capsuleId);
    return this.say(text);
  }

  /** Sends a message in the open conversation; the new entry. */
  async say(text: string): Promise<Locator> {
    const before = await this.entries.count();
    await this.message.fill(text);
    await this.send.click();
    await this.entries.nth(before).waitFor();
    return this.entries.nth(before);
  }

  /** The whole contextId of the open conversation (the bar shows its end; the tooltip, all of it). */
  async contextId(): Promise<string> {
    return (await this.context.getAttribute('data-context-id')) ?? '';
  }

  /** The task id an entry shows, in its short form ("…e09310"); the whole id is in its tooltip. */
  taskIdShown(entry: Locator): Locator {
    return entry.getByTitle(/^Task tsk_/);
  }

  /** The whole task id of an entry (the entry shows its short form). */
  async taskIdOf(entry: Locator): Promise<string> {
    return (await this.taskIdShown(entry).getAttribute('data-id')) ?? '';
  }

  /** Answers the question of a task waiting for input, inside a console entry or an inspector row. */
  async reply(scope: Locator, text: string): Promise<void> {
    const box = scope.getByRole('group', { name: /^Input requested by task/ });
    await box.getByRole('textbox', { name: 'Reply' }).fill(text);
    await box.getByRole('button', { name: 'Send reply' }).click();
  }
}
