/** How many events a hub holds, read a page of 1,000 at a time over GraphQL. */
import { gqlData } from '../harness/graphql-http.js';

export async function countEvents(url: string, id: string): Promise<number> {
  let after = 0;
  let count = 0;
  for (;;) {
    const { session } = await gqlData(
      url,
      'query($id: ID!, $after: Int) { session(id: $id) { events(after: $after, limit: 1000) { seq } } }',
      { id, after },
    );
    const page = session.events as { seq: number }[];
    count += page.length;
    if (page.length < 1000) return count;
    after = page.at(-1)!.seq;
  }
}

export async function totalEvents(url: string): Promise<number> {
  const { sessions } = await gqlData(url, '{ sessions { id } }');
  let total = 0;
  for (const s of sessions as { id: string }[]) total += await countEvents(url, s.id);
  return total;
}
