// A unified diff (git format) between two versions of one text file: the common first and last
// lines trimmed, a longest-common-subsequence line diff of the rest, hunks with three lines of
// context. What `git apply` reads; checked with `git apply --check` in the tests.

interface Op { kind: ' ' | '-' | '+'; line: string; oldNo: number; newNo: number }

const splitLines = (text: string) => {
  const lines = text.split('\n');
  const eol = text.endsWith('\n');
  if (eol) lines.pop();
  return { lines, eol };
};

function lineOps(a: string[], b: string[]): Op[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const x = a.slice(pre, a.length - suf);
  const y = b.slice(pre, b.length - suf);
  // LCS table over the changed middle only.
  const w = y.length + 1;
  const t = new Uint32Array((x.length + 1) * w);
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      t[i * w + j] = x[i] === y[j] ? t[(i + 1) * w + j + 1] + 1 : Math.max(t[(i + 1) * w + j], t[i * w + j + 1]);
    }
  }
  const ops: Op[] = [];
  let o = 0;
  let n = 0;
  const push = (kind: Op['kind'], line: string) => { ops.push({ kind, line, oldNo: o, newNo: n }); if (kind !== '+') o++; if (kind !== '-') n++; };
  for (let k = 0; k < pre; k++) push(' ', a[k]);
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) { push(' ', x[i]); i++; j++; }
    else if (j < y.length && (i >= x.length || t[i * w + j + 1] >= t[(i + 1) * w + j])) { push('+', y[j]); j++; }
    else { push('-', x[i]); i++; }
  }
  for (let k = a.length - suf; k < a.length; k++) push(' ', a[k]);
  return ops;
}

/** The patch of `file` from `before` to `after`; '' when they are equal. */
export function unifiedDiff(file: string, before: string, after: string, context = 3): string {
  if (before === after) return '';
  const A = splitLines(before);
  const B = splitLines(after);
  const ops = lineOps(A.lines, B.lines);
  const changed = ops.map((op, k) => (op.kind !== ' ' ? k : -1)).filter((k) => k >= 0);
  const hunks: [number, number][] = [];
  for (const k of changed) {
    const start = Math.max(0, k - context);
    const end = Math.min(ops.length - 1, k + context);
    const last = hunks[hunks.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else hunks.push([start, end]);
  }
  const out = [`diff --git a/${file} b/${file}`, `--- a/${file}`, `+++ b/${file}`];
  for (const [s, e] of hunks) {
    const slice = ops.slice(s, e + 1);
    const oldCount = slice.filter((op) => op.kind !== '+').length;
    const newCount = slice.filter((op) => op.kind !== '-').length;
    const oldStart = oldCount ? slice.find((op) => op.kind !== '+')!.oldNo + 1 : slice[0].oldNo;
    const newStart = newCount ? slice.find((op) => op.kind !== '-')!.newNo + 1 : slice[0].newNo;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of slice) {
      out.push(`${op.kind}${op.line}`);
      // The last line of a file without a final newline says so.
      const lastOld = op.kind !== '+' && op.oldNo === A.lines.length - 1 && !A.eol;
      const lastNew = op.kind !== '-' && op.newNo === B.lines.length - 1 && !B.eol;
      if ((op.kind === ' ' && (lastOld || lastNew)) || (op.kind === '-' && lastOld) || (op.kind === '+' && lastNew)) out.push('\\ No newline at end of file');
    }
  }
  return `${out.join('\n')}\n`;
}
