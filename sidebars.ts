import type {SidebarsConfig} from '@docusaurus/plugin-content-docs';

const sidebars = {
  docs: [{type: 'doc', id: 'get-started', label: 'Get started'}],
} satisfies SidebarsConfig;

export default sidebars;
