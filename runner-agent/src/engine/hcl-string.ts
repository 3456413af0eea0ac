// HCL string literals, both ways: writing a value so that parsing it gives exactly that value
// back (discovery's generated code, tofu.ts's override files), and reading a string as
// hcl2json gives it (template source form) as the literal it is, or not a literal at all.
//
// In an HCL quoted string, `${` starts an interpolation and `%{` a directive; `$${` and `%%{`
// are their escapes, and only `\n \r \t \" \\ \uNNNN \UNNNNNNNN` are escape sequences (JSON's
// `\b` and `\f` are not: JSON.stringify is not an HCL writer). hcl2json returns strings in that
// template form (Terraform's JSON syntax: `$${` still means a literal `${`). HCL normalises
// string literals to Unicode NFC, so a value in another normal form reads back as its NFC form.

/** Characters written as `\uNNNN`: C0 and C1 controls, DEL, line and paragraph separators, BOM. */
const ESCAPED = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;
const SHORT: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const u4 = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;

/** A quoted HCL string whose value is exactly `s` (NFC); a lone surrogate, which no UTF-8 text holds, is written U+FFFD. */
export function hclString(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (SHORT[ch]) out += SHORT[ch];
    else if (ESCAPED.test(ch)) out += u4(code);
    else if (code >= 0xd800 && code <= 0xdfff) out += '\\ufffd';
    else out += ch;
  }
  // A function replacer: in a replacement string, `$$` means one `$`, which is how `${` once
  // stayed `${` here and became a live interpolation.
  return `"${out.replace(/[$%]\{/g, (m) => `${m[0]}${m}`)}"`;
}

/**
 * The literal value of a string as hcl2json returns it: escapes `$${` and `%%{` decoded; undefined
 * when it holds a live interpolation or directive (it is an expression, not a literal).
 */
export function templateLiteral(s: string): string | undefined {
  if (!s.includes('{')) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if ((c === '$' || c === '%') && s[i + 1] === c && s[i + 2] === '{') {
      out += `${c}{`;
      i += 2;
    } else if ((c === '$' || c === '%') && s[i + 1] === '{') return undefined;
    else out += c;
  }
  return out;
}

/** Text for a `#` comment line: every control or line-breaking character shown as `\uNNNN`, none written. */
export const commentText = (s: string): string => s.replace(new RegExp(ESCAPED.source, 'g'), (ch) => u4(ch.charCodeAt(0)));
