import {z} from 'zod';

/**
 * The fields of a Google service account key the worker uses (auth/firebaseAccounts.ts). Checked
 * by the worker's settings at start and by `npm run preflight` before a deploy.
 */
export const serviceAccountSchema = z.object({
  client_email: z.string().min(1),
  private_key: z.string().min(1),
  project_id: z.string().optional(),
});
