import MDXComponents from '@theme-original/MDXComponents';
import BackendTabs, {Firebase, Supabase} from '@site/src/components/docs/BackendTabs';
import ComponentPreview from '@site/src/components/docs/ComponentPreview';
import FileExcerpt from '@site/src/components/docs/FileExcerpt';

/** Components every docs page may use without importing them. */
export default {
  ...MDXComponents,
  BackendTabs,
  Firebase,
  Supabase,
  ComponentPreview,
  FileExcerpt,
};
