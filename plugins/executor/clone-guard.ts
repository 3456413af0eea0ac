// What the built-in executor may clone from the service host (docs/executor.md "What it clones").
// A repositoryUrl is a claim by a tenant about where its code is; cloning it from here opens a
// connection from inside the service's network, so it is proven at connect time by the same
// address rules as webhooks (core/net-guard.ts):
//
//  - https:// only; http:// only to hosts EXECUTOR_ALLOWED_HOSTS opens (an internal git
//    server). git://, ssh://, scp-like `git@host:repo`, file:// and the rest are refused (file://
//    passes only with EXECUTOR_LOCAL_SOURCES, the tests' and the demo's switch).
//  - The host (WHATWG-normalised, so `0x7f.1` is 127.0.0.1) must be public, or resolve only to
//    public addresses, or be opened by EXECUTOR_ALLOWED_HOSTS (names and CIDRs) or be the
//    configured source host (SCM_WEB_URL, set by the operator).
//  - git runs its own resolver, so the checked addresses are handed to curl
//    (`http.curloptResolve`, git >= 2.37): the clone connects to an address that was checked, a
//    name re-bound in between changes nothing. Redirects are not followed, only the one
//    protocol is allowed, and no credential helper runs.
//  - Every refusal reads the same ("repositoryUrl is not allowed: ..."): whether the target
//    does not resolve, is private, or speaks another protocol is not told apart.
import ipaddr from 'ipaddr.js';
import { type CloneGuard, ScanError } from '../../runner-agent/src/engine/index.ts';
import { AddressRefused, checkedAddresses, hostOf, inRanges, parseAllowList, systemResolver, type AllowList, type Resolver } from '../../core/net-guard.ts';

export const NOT_ALLOWED = 'repositoryUrl is not allowed: the built-in executor clones https:// URLs of public hosts, and of the internal hosts the operator opens with EXECUTOR_ALLOWED_HOSTS; to scan another source, give the config runnerLabels so a self-hosted runner clones it';

export interface CloneGuardOptions {
  /** EXECUTOR_ALLOWED_HOSTS. */
  allowedHosts: string;
  /** EXECUTOR_LOCAL_SOURCES: file:// URLs pass unconfined (tests, the demo). */
  localSources: boolean;
  /** The source host's web URL (SCM_WEB_URL): the operator's own git host is allowed. */
  scmWebUrl?: string;
  resolve?: Resolver;
}

function withScmHost(list: AllowList, scmWebUrl: string | undefined): AllowList {
  if (!scmWebUrl) return list;
  const names = new Set(list.names);
  names.add(hostOf(new URL(scmWebUrl)));
  return { ...list, names, empty: false };
}

/** Whether the operator opened an http:// target on purpose: plain http never goes to the Internet. */
const operatorOpened = (list: AllowList, host: string, addresses: { address: string }[]) =>
  list.names.has(host) || addresses.every((a) => inRanges(list, a.address));

export function createCloneGuard(opts: CloneGuardOptions): CloneGuard {
  const list = withScmHost(parseAllowList(opts.allowedHosts), opts.scmWebUrl);
  const resolve = opts.resolve ?? systemResolver;
  const refuse = () => new ScanError('source_unavailable', NOT_ALLOWED);

  return async (raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refuse(); // scp-like git@host:repo, or not a URL
    }
    if (url.protocol === 'file:' && opts.localSources) return { url: raw, config: [] };
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse();
    const host = hostOf(url);
    let addresses: { address: string; family: number }[];
    try {
      addresses = await checkedAddresses(host, list, resolve);
    } catch (e) {
      if (e instanceof AddressRefused) throw refuse();
      throw e;
    }
    if (url.protocol === 'http:' && !operatorOpened(list, host, addresses)) throw refuse();
    const scheme = url.protocol.slice(0, -1);
    const port = url.port || (scheme === 'https' ? '443' : '80');
    const config = [
      'protocol.allow=never', `protocol.${scheme}.allow=always`,
      'http.followRedirects=false', 'credential.helper=', 'core.askPass=', 'submodule.recurse=false',
    ];
    // An IP literal is connected as written (curl resolves nothing); a name is pinned to what was checked.
    if (!ipaddr.isValid(host)) {
      const pinned = addresses.map((a) => (a.family === 6 ? `[${a.address}]` : a.address)).join(',');
      config.push(`http.curloptResolve=${host}:${port}:${pinned}`);
    }
    return { url: url.href, config };
  };
}
