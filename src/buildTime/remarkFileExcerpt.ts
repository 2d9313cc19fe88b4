/**
 * `<FileExcerpt file="src/config/app.ts" parts={[['  plans: [', '  ],']]} />` in a docs page
 * becomes, as the page compiles, a code block titled with the file that quotes those stretches of
 * it as it is at build time (see ./fileExcerpt.ts): a rename or a new price changes the docs with
 * the file, where a quote typed into the page would keep the old values. A stretch the file no
 * longer holds fails the build, as a broken link does. Done at compile time, the page ships the
 * quote, not the whole file for the browser to cut.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {excerpt, type ExcerptPart} from './fileExcerpt';

interface MdxNode {
  type: string;
  name?: string | null;
  attributes?: Array<{type: string; name?: string; value?: unknown}>;
  children?: MdxNode[];
  data?: unknown;
  position?: {start: {line: number}};
}

interface EstreeNode {
  type: string;
  value?: unknown;
  elements?: Array<EstreeNode | null>;
  expression?: EstreeNode;
  body?: EstreeNode[];
}

const COMPONENT = 'FileExcerpt';

/** The value of a literal array of arrays of strings, read from its syntax tree (nothing is run). */
function literalParts(program: EstreeNode | undefined, where: string): ExcerptPart[] {
  const array = program?.body?.[0]?.expression;
  const fail = () =>
    new Error(`${where}: <${COMPONENT}> parts must be a literal, non-empty array of [from, to?] strings.`);
  if (array?.type !== 'ArrayExpression' || array.elements!.length === 0) throw fail();
  return array.elements!.map((part) => {
    if (part?.type !== 'ArrayExpression' || part.elements!.length < 1 || part.elements!.length > 2) throw fail();
    const strings = part.elements!.map((element) => {
      if (element?.type !== 'Literal' || typeof element.value !== 'string') throw fail();
      return element.value;
    });
    return strings as unknown as ExcerptPart;
  });
}

function attribute(node: MdxNode, name: string): unknown {
  return node.attributes?.find((candidate) => candidate.type === 'mdxJsxAttribute' && candidate.name === name)?.value;
}

/** The code block that stands for one `<FileExcerpt>`, with the file read from `siteDir`. */
export function fileExcerptBlock(
  node: MdxNode,
  siteDir: string,
  page: string,
): MdxNode & {lang: string; meta: string; value: string} {
  const where = `${page}:${node.position?.start.line ?? '?'}`;
  const file = attribute(node, 'file');
  if (typeof file !== 'string' || !file)
    throw new Error(`${where}: <${COMPONENT}> needs file="path/in/the/repository".`);
  const partsValue = attribute(node, 'parts') as {data?: {estree?: EstreeNode}} | undefined;
  const parts = literalParts(partsValue?.data?.estree, where);
  const language = attribute(node, 'language');
  let text: string;
  try {
    text = readFileSync(path.join(siteDir, file), 'utf8');
  } catch {
    throw new Error(`${where}: <${COMPONENT}> quotes ${file}, which is not a file of the repository.`);
  }
  try {
    return {
      type: 'code',
      lang: typeof language === 'string' ? language : 'ts',
      meta: `title="${file}"`,
      value: excerpt(text, parts, file),
    };
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`, {cause: error});
  }
}

/** The remark plugin: every `<FileExcerpt>` of a page, replaced by its code block. */
export default function remarkFileExcerpt(options: {siteDir: string}) {
  return (tree: MdxNode, vfile: {path?: string}) => {
    const page = path.relative(options.siteDir, vfile.path ?? 'a docs page');
    const visit = (parent: MdxNode) => {
      parent.children?.forEach((child, index) => {
        if ((child.type === 'mdxJsxFlowElement' || child.type === 'mdxJsxTextElement') && child.name === COMPONENT) {
          if (child.type === 'mdxJsxTextElement')
            throw new Error(`${page}:${child.position?.start.line ?? '?'}: <${COMPONENT}> must stand on its own line.`);
          parent.children![index] = fileExcerptBlock(child, options.siteDir, page);
        } else {
          visit(child);
        }
      });
    };
    visit(tree);
  };
}
