// The three azurerm VM types are one ARM type (Microsoft.Compute/virtualMachines): a group's or
// subscription's list answers all of them, and a scan makes each list once (RestApi.once)
// whichever reader asks. The fake's lists answer them all too, each mapped back by its own
// type's fromState: these routes come before the kit's per-type ones (the fake takes the first
// list answered). In list mode (Cloud Discovery) a VM is listed once, under the current type for
// its OS (linux or windows virtual machine); the legacy azurerm_virtual_machine lists nothing.
import type { RestApi } from '../../rest/api.ts';
import { fakeList, text, type FakeRoute, type Listed, type RestReader } from '../../rest/reader.ts';
import { ARM, groupIdOf, location, lower, nameOf, type ArmJson } from '../kit.ts';
import { legacyVmFromState } from './compute-legacy.ts';
import { VM_API, vmFromState, vmToState } from './compute.ts';
import type { Attrs } from './util.ts';

const FROM: Record<string, (a: Attrs) => Record<string, unknown>> = {
  azurerm_linux_virtual_machine: (a) => vmFromState(a, 'linux'),
  azurerm_windows_virtual_machine: (a) => vmFromState(a, 'windows'),
  azurerm_virtual_machine: legacyVmFromState,
};
const VMS = '/providers/Microsoft.Compute/virtualMachines';

/** The fake's list of every VM (of the three types) whose id is under `prefix`. */
const vmsUnder = (prefix: string, world: Parameters<FakeRoute['answer']>[1]) => fakeList(Object.entries(FROM).flatMap(([type, from]) => world.of(type)
  .filter((i) => lower(text(i.attributes.id)).startsWith(`${prefix}/`))
  .map((i) => ({ id: i.attributes.id, name: nameOf(String(i.attributes.id)), ...from(i.attributes) }))));

export const vmLists: FakeRoute[] = [
  { method: 'GET', service: ARM, path: `/subscriptions/:sub/resourceGroups/:rg${VMS}`, answer: (req, world) => vmsUnder(lower(groupIdOf(req.path)), world) },
  { method: 'GET', service: ARM, path: `/subscriptions/:sub${VMS}`, answer: (req, world) => vmsUnder(lower(`/subscriptions/${req.params.sub}`), world) },
];

/** A VM's OS: its OS disk's type, else the OS configuration ARM answers. */
function osOf(json: ArmJson): 'linux' | 'windows' | undefined {
  const p = json.properties ?? {};
  const t = lower(p.storageProfile?.osDisk?.osType);
  if (t === 'linux' || t === 'windows') return t;
  return p.osProfile?.linuxConfiguration ? 'linux' : p.osProfile?.windowsConfiguration ? 'windows' : undefined;
}

function lister(os: 'linux' | 'windows') {
  return async (api: RestApi, account: string): Promise<Listed[]> => {
    const path = `/subscriptions/${account}${VMS}`;
    const all = await api.once(`arm-list:${path}`, () => api.list<ArmJson>(ARM, `${path}?api-version=${VM_API}`, `list virtual machines in subscription ${account}`, { style: 'nextLink' }));
    return all.filter((j) => typeof j.id === 'string' && osOf(j) === os).map((j) => {
      const loc = location(j.location);
      return { id: j.id as string, location: typeof loc === 'string' && loc ? loc : null, attributes: vmToState(j, os, { id: j.id }) };
    });
  };
}

/** A VM reader with the shared lists answered first by the fake, and its list mode by OS (none for the legacy type). */
export function withVmLists(reader: RestReader, os: 'linux' | 'windows' | null, fake = false): RestReader {
  const { list: _kit, ...rest } = reader;
  return { ...rest, fake: fake ? [...vmLists, ...reader.fake] : reader.fake, ...(os ? { list: lister(os) } : {}) };
}
