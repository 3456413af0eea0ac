// A replay answer that adds to another reader's: the fake's records of an EC2 Describe call are
// the base reader's records plus what this family's types imply (an EIP association on an address,
// a main route table association on a table), with the API's id and filter selection applied
// to the union. The replay keeps the first answer per operation, so these families register
// their readers ahead of the ones they extend (cloud/aws/index.ts).
import { answer, type Answer, type FakeWorld } from '../reader.ts';
import { ec2Select, filterValues } from '../replay/kit.ts';

export interface Overlay {
  base: Answer; schema: unknown; listField: string; idsField: string; idFilter: string; notFound: string;
  idOf: (r: Record<string, unknown>) => string;
  /** The union: the base's records (all of them) in, this family's additions applied. */
  extend: (records: Record<string, unknown>[], world: FakeWorld) => Record<string, unknown>[];
  /** Other filters the readers use, as predicates over a record. */
  filters?: Record<string, (r: Record<string, unknown>, values: string[]) => boolean>;
}

export function overlayAnswer(o: Overlay): Answer {
  return answer<Record<string, unknown>>('ec2', o.schema, async (input, world) => {
    const all = ((await o.base.answer({}, world)) as Record<string, unknown>)[o.listField] as Record<string, unknown>[] ?? [];
    let picked = ec2Select(o.extend(all, world), o.idOf, input[o.idsField] as string[] | undefined, filterValues(input, o.idFilter), o.notFound);
    for (const [name, test] of Object.entries(o.filters ?? {})) {
      const values = filterValues(input, name);
      if (values) picked = picked.filter((r) => test(r, values));
    }
    return { [o.listField]: picked };
  });
}
