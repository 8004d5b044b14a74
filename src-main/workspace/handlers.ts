import type { CommandArgs, CommandName, CommandOutput } from '../../src-shared/contract';

/** What a handler knows of its call: `signal` aborts when the caller stops waiting (a canceled invoke, a closed client). */
export interface CommandCall {
  signal?: AbortSignal;
}

/** One handler per contract command; inputs arrive already parsed by the command's schema. */
export type Handlers = {
  [K in CommandName]: (args: CommandArgs<K>, call?: CommandCall) => Promise<CommandOutput<K>> | CommandOutput<K>;
};
