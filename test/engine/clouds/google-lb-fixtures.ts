// The written states of issue 33 (test/engine/corpus-google/written-google-{lb,ops}.tfstate, in
// the google provider's shapes) as the tests' fixtures, and helpers to change one instance live.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readStateDocument } from '../../../runner-agent/src/engine/state-v4.ts';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { changed } from './harness.ts';

const load = (file: string): StateInstance[] =>
  readStateDocument(readFileSync(path.join(import.meta.dirname, '..', 'corpus-google', file), 'utf8'), file).instances;

export const LB = load('written-google-lb.tfstate');
export const OPS = load('written-google-ops.tfstate');
export const LB_PROJECT = 'acme-edge-prod';
export const C = `https://www.googleapis.com/compute/v1/projects/${LB_PROJECT}`;

export const at = (state: StateInstance[], address: string): StateInstance => {
  const found = state.find((i) => i.address === address);
  if (!found) throw new Error(`no ${address} in the fixture`);
  return found;
};
/** `state` with the instance at `address` changed (the live side of a drift). */
export const swap = (state: StateInstance[], address: string, attrs: Record<string, unknown>): StateInstance[] =>
  state.map((x) => (x.address === address ? changed(x, attrs) : x));
/** A copy of an instance under another name (and address), for tests that need several of a type. */
export const renamed = (i: StateInstance, name: string, attrs: Record<string, unknown> = {}): StateInstance => ({
  ...i, name, address: `${i.type}.${name}`,
  attributes: { ...i.attributes, name, id: String(i.attributes.id).replace(/[^/]+$/, name), self_link: String(i.attributes.self_link ?? '').replace(/[^/]+$/, name), ...attrs },
});
