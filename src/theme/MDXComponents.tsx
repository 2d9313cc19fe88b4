import MDXComponents from '@theme-original/MDXComponents';
import BackendTabs, {Firebase, Supabase} from '@site/src/components/docs/BackendTabs';
import ComponentPreview from '@site/src/components/docs/ComponentPreview';

/** Components every docs page may use without importing them (and `<FileExcerpt>`, which src/buildTime/remarkFileExcerpt.ts turns into a code block as the page compiles). */
export default {
  ...MDXComponents,
  BackendTabs,
  Firebase,
  Supabase,
  ComponentPreview,
};
