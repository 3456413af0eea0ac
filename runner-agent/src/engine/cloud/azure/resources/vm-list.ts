// The three azurerm VM types are one ARM type (Microsoft.Compute/virtualMachines): a group's
// list answers all of them, and the scan makes it once (RestApi.once) whichever reader asks.
// The fake's list must answer them all too, each mapped back by its own type's fromState: this
// route comes before the kit's per-type list routes (the fake takes the first list answered).
import type { RestReader } from '../../rest/reader.ts';
import { fakeList, text, type FakeRoute } from '../../rest/reader.ts';
import { ARM, groupIdOf, lower, nameOf } from '../kit.ts';
import { legacyVmFromState } from './compute-legacy.ts';
import { vmFromState } from './compute.ts';
import type { Attrs } from './util.ts';

const FROM: Record<string, (a: Attrs) => Record<string, unknown>> = {
  azurerm_linux_virtual_machine: (a) => vmFromState(a, 'linux'),
  azurerm_windows_virtual_machine: (a) => vmFromState(a, 'windows'),
  azurerm_virtual_machine: legacyVmFromState,
};

export const vmGroupList: FakeRoute = {
  method: 'GET', service: ARM, path: '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Compute/virtualMachines',
  answer: (req, world) => {
    const group = lower(groupIdOf(req.path));
    const items = Object.entries(FROM).flatMap(([type, from]) => world.of(type)
      .filter((i) => lower(groupIdOf(text(i.attributes.id) ?? '')) === group)
      .map((i) => ({ id: i.attributes.id, name: nameOf(String(i.attributes.id)), ...from(i.attributes) })));
    return fakeList(items);
  },
};

/** `reader` with the shared VM list answered first by the fake. */
export const withVmList = (reader: RestReader): RestReader => ({ ...reader, fake: [vmGroupList, ...reader.fake] });
