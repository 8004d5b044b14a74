import type { CommandArgs, CommandName, CommandOutput } from '../../src-shared/contract';

/** One handler per contract command; inputs arrive already parsed by the command's schema. */
export type Handlers = { [K in CommandName]: (args: CommandArgs<K>) => Promise<CommandOutput<K>> | CommandOutput<K> };
