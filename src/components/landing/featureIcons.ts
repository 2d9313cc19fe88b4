import {
  BookOpen,
  ChartColumn,
  Cloud,
  CreditCard,
  Database,
  Gauge,
  KeyRound,
  Mail,
  MessageCircle,
  Search,
  type LucideIcon,
} from 'lucide-react';
import type {FeatureIcon} from '../../config';

/** The Lucide icon each feature icon name of the config stands for. */
export const featureIcons: Record<FeatureIcon, LucideIcon> = {
  payments: CreditCard,
  'sign-in': KeyRound,
  emails: Mail,
  seo: Search,
  database: Database,
  'rate-limit': Gauge,
  analytics: ChartColumn,
  support: MessageCircle,
  docs: BookOpen,
  worker: Cloud,
};
