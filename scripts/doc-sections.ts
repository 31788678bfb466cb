/**
 * Parts of docs written from code: each lies between `<!-- NAME:begin -->` and
 * `<!-- NAME:end -->`, formatted as prettier formats the rest of the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { format } from 'prettier';
import { layersDocs } from './architecture.js';
import { lifecycleDocs } from '../src/sessions/lifecycle-docs.js';

/** The generated sections: the file each lies in, and what writes it. */
export const docSections = [
  { file: 'docs/sessions.md', name: 'lifecycle', write: lifecycleDocs },
  { file: 'docs/architecture.md', name: 'layers', write: layersDocs },
] as const;

/** `doc` with the part between the markers of `name` replaced by `generated`. */
export function withSection(doc: string, name: string, generated: string): string {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`no ${begin} ... ${end} in the document`);
  return `${doc.slice(0, from + begin.length)}\n\n${generated}\n${doc.slice(to)}`;
}

/** Each document as it should read, with its sections written anew from the code. */
export async function documentsFromCode(root: URL): Promise<Map<string, string>> {
  const documents = new Map<string, string>();
  for (const { file, name, write } of docSections) {
    const doc = documents.get(file) ?? readFileSync(new URL(file, root), 'utf8');
    const generated = await format(write(), { parser: 'markdown', proseWrap: 'preserve' });
    documents.set(file, withSection(doc, name, generated));
  }
  return documents;
}

/** Writes the generated sections into their documents. */
export async function writeDocSections(root: URL): Promise<void> {
  for (const [file, text] of await documentsFromCode(root))
    writeFileSync(new URL(file, root), text);
}
