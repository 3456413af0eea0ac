// The loader orders plugins by what they declare they need (core/plugin.ts) and refuses to
// boot, naming the plugin, when a needed plugin is missing, disabled, or needs it back.
import t from 'tap';
import { orderPlugins, ManifestError, type LoadedPlugin } from '../../core/loader.ts';

const plugin = (name: string, needs: string[] = [], opts: { uses?: string[]; enabled?: boolean } = {}): LoadedPlugin => ({
  manifest: { plugin: name, prefix: `/api/${name}`, reply: 'envelope', routes: [] },
  enabled: opts.enabled ?? true,
  plan: undefined,
  definition: { manifest: { plugin: name, prefix: `/api/${name}`, reply: 'envelope', routes: [] }, needs, uses: opts.uses, build: () => ({ handlers: {} }) },
});
const names = (ps: LoadedPlugin[]) => ps.map((p) => p.manifest.plugin);

t.test('each plugin comes after the plugins it needs or uses; name order otherwise', async (t) => {
  const order = names(orderPlugins([plugin('a-scans', ['m-drifts', 'z-configs']), plugin('m-drifts'), plugin('z-configs', ['m-drifts']), plugin('b-widgets', [], { uses: ['a-scans'] })]));
  t.same(order, ['m-drifts', 'z-configs', 'a-scans', 'b-widgets']);
});

t.test('a disabled plugin that is only used is skipped; a disabled one that is needed stops the boot', async (t) => {
  t.same(names(orderPlugins([plugin('a', [], { uses: ['b'] }), plugin('b', [], { enabled: false })])), ['a']);
  t.throws(() => orderPlugins([plugin('executor', ['scans']), plugin('scans', [], { enabled: false })]),
    new ManifestError('plugins/executor: needs plugin "scans", which is disabled in DRIFT_CONFIG; enable "scans" or disable "executor"'));
  t.same(names(orderPlugins([plugin('executor', ['scans'], { enabled: false }), plugin('scans', [], { enabled: false })])), [], 'both off: fine');
});

t.test('a need that does not exist is named, with a suggestion', async (t) => {
  t.throws(() => orderPlugins([plugin('executor', ['scan']), plugin('scans')]),
    new ManifestError('plugins/executor: needs plugin "scan", which does not exist; did you mean "scans"?'));
});

t.test('a circle of needs is refused with its path', async (t) => {
  t.throws(() => orderPlugins([plugin('a', ['b']), plugin('b', ['c']), plugin('c', ['a'])]), /a circle of needs: a -> b -> c -> a/);
});
