// The CLI's sub-commands by name. Each returns the process exit code.
export type Command = (argv: string[]) => Promise<number>;

import { run as inspect } from './inspect';
import { run as summary } from './summary';
import { run as signatures } from './signatures';
import { run as trajectory } from './trajectory';
import { run as compare } from './compare';

export const commands: Record<string, Command> = { inspect, summary, signatures, trajectory, compare };
