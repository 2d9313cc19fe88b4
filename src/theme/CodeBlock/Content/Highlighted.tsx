import type {ComponentType} from 'react';
import {Prism} from 'prism-react-renderer';
import type {Props} from '@theme/CodeBlock/Content';
import prismIncludeLanguages from '@theme/prism-include-languages';
import Content from '@theme-original/CodeBlock/Content';

// What the classic theme's client module did for every page, done here for
// the code blocks that need Prism (see ./index.tsx and src/plugins/prismOnDemand).
prismIncludeLanguages(Prism);

/** The classic theme's code, highlighted with Prism. */
export default Content as ComponentType<Props>;
