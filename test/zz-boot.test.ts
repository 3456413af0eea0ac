const s0 = performance.now();
const { default: t } = await import('tap');
const s1 = performance.now();
const { buildTestApp } = await import('/work/main/test/helper.ts');
const s2 = performance.now();
t.test('boot', async (t) => {
  const s = performance.now();
  const { ctx } = await buildTestApp(t);
  console.error('tap import', Math.round(s1 - s0), 'helper import', Math.round(s2 - s1), 'boot ms', Math.round(performance.now() - s), 'cpu', process.cpuUsage());
});
