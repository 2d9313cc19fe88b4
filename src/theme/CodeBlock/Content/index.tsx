import {Prism} from 'prism-react-renderer';
import prismIncludeLanguages from '@theme/prism-include-languages';
import Content from '@theme-original/CodeBlock/Content';

// What the classic theme's client module did for every page, done here for
// pages that show code (see src/plugins/prismOnDemand).
prismIncludeLanguages(Prism);

export default Content;
