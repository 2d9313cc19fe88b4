import {writeFile} from 'node:fs/promises';
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';
import type {LoadedContent, LoadedVersion} from '@docusaurus/plugin-content-docs';

interface Site {
  title: string;
  tagline: string;
  url: string;
}

type SidebarItem = LoadedVersion['sidebars'][string][number];

/**
 * /llms.txt (llmstxt.org): the current docs, in sidebar order, one section
 * per sidebar section, each page with its absolute URL and description, so
 * an AI assistant can find the page that answers a question.
 */
export function renderLlmsTxt(site: Site, version: Pick<LoadedVersion, 'docs' | 'sidebars'>): string {
  const docs = new Map(version.docs.map((doc) => [doc.id, doc]));
  const line = (id: string) => {
    const doc = docs.get(id);
    if (!doc) throw new Error(`llms.txt: the sidebar names "${id}", which is not a doc.`);
    const summary = doc.description ? `: ${doc.description}` : '';
    return `- [${doc.title}](${new URL(doc.permalink, site.url).href})${summary}`;
  };
  const top: string[] = [];
  const sections: string[] = [];
  for (const item of Object.values(version.sidebars).flat() as SidebarItem[]) {
    if (item.type === 'doc' || item.type === 'ref') top.push(line(item.id));
    if (item.type === 'category') {
      const ids = [
        ...(item.link?.type === 'doc' ? [item.link.id] : []),
        ...item.items.flatMap((child) => (child.type === 'doc' || child.type === 'ref' ? [child.id] : [])),
      ];
      sections.push(`## ${item.label}\n\n${ids.map(line).join('\n')}`);
    }
  }
  return [`# ${site.title}`, `> ${site.tagline}`, `## Docs\n\n${top.join('\n')}`, ...sections].join('\n\n') + '\n';
}

export default function llmsTxt(): Plugin {
  let current: LoadedVersion | undefined;
  return {
    name: 'llms-txt',
    allContentLoaded({allContent}) {
      const docs = allContent['docusaurus-plugin-content-docs']?.default as LoadedContent | undefined;
      current = docs?.loadedVersions.find((version) => version.versionName === 'current');
    },
    async postBuild({outDir, siteConfig}) {
      if (!current) throw new Error('llms.txt: the docs plugin loaded no current version.');
      await writeFile(path.join(outDir, 'llms.txt'), renderLlmsTxt(siteConfig, current));
    },
  };
}
