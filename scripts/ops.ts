// Operator CLI: `npm run ops -- <command>`. Commands that touch data connect the way
// `npm start` does (scripts/app-for-scripts.ts); the others only read files.
// Exit codes: 0 done, 1 failed (unknown organization, store or config error), 2 usage or invalid input.
import { PLANS } from '../core/plans.ts';
import { runScript } from './app-for-scripts.ts';

// Each command's module is loaded only when it runs, so usage errors skip loading the app.
interface Command {
  args: string;
  help: string[];
  /** Accepted argument counts. */
  arity: [number, number];
  run(args: string[]): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  'create-admin': {
    args: '<email> <password|-> [name]',
    help: ['create a platform admin with a default organization, as registration does;',
      'an existing user with this email is promoted instead. "-" reads the password from stdin'],
    arity: [2, 3],
    run: async (args) => (await import('./ops/accounts.ts')).createAdmin(args),
  },
  'set-plan': {
    args: `<orgId> <${PLANS.join('|')}>`,
    help: ["set an organization's plan; running servers see it at once"],
    arity: [2, 2],
    run: async (args) => (await import('./ops/plans.ts')).setPlan(args),
  },
  plugins: {
    args: '',
    help: ['list the plugins found in manifests/: enabled, plan tier, route count'],
    arity: [0, 0],
    run: async () => (await import('./ops/plugins.ts')).listPlugins(),
  },
  outbox: {
    args: '[n] [--raw]',
    help: ['list the mails in MAIL_OUTBOX_DIR, newest last; with n, print message n'],
    arity: [0, 2],
    run: async (args) => (await import('./ops/outbox.ts')).outbox(args),
  },
};

function usage(): string {
  const lines = ['usage: npm run ops -- <command> [arguments]', '', 'commands:'];
  for (const [name, c] of Object.entries(COMMANDS)) {
    lines.push(`  ${name} ${c.args}`.trimEnd());
    for (const h of c.help) lines.push(`      ${h}`);
  }
  return lines.join('\n');
}

runScript('ops', async () => {
  const [name, ...args] = process.argv.slice(2);
  if (name === 'help' || name === '--help' || name === '-h') {
    console.log(usage());
    return 0;
  }
  const command = name === undefined ? undefined : Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(`${name === undefined ? 'ops: no command given' : `ops: unknown command "${name}"`}\n\n${usage()}`);
    return 2;
  }
  const [min, max] = command.arity;
  if (args.length < min || args.length > max) {
    console.error(`usage: npm run ops -- ${name} ${command.args}`.trimEnd());
    return 2;
  }
  return command.run(args);
});
