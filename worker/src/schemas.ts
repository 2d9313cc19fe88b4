import {z} from 'zod';
import {
  CHECKOUT_CLAIM_PATTERN,
  type AddUserToRepoRequest,
  type BillingPortalRequest,
  type CheckoutStatusRequest,
  type CreateCheckoutSessionRequest,
  type DownloadLinkRequest,
  type LeadRequest,
  type ResendExtraInvitationRequest,
} from '../../src/config/api';

/**
 * Request bodies and parameters, checked at the boundary. The first message of a failed check is
 * what the caller reads, so each one says what to fix.
 */

/** GitHub's rule: 1 to 39 letters, digits or single hyphens, not starting or ending with one. */
export const githubUsername = z
  .string({message: 'GitHub username is required'})
  .trim()
  .min(1, 'GitHub username is required')
  .max(39, 'A GitHub username has at most 39 characters')
  .regex(
    /^[A-Za-z\d](?:[A-Za-z\d]|-(?=[A-Za-z\d]))*$/,
    'A GitHub username has letters, digits and single hyphens between them',
  );

const email = z
  .string({message: 'A valid e-mail address is required'})
  .trim()
  .max(254, 'A valid e-mail address is required')
  .pipe(z.email({message: 'A valid e-mail address is required'}))
  .transform((value) => value.toLowerCase());

const urlsRequired = 'Success and cancel URLs are required';
const url = z
  .string({message: urlsRequired})
  .max(2048)
  .refine((value) => value.trim() !== '', urlsRequired);

export const checkoutBody = z.object({
  priceId: z
    .string({message: 'Price ID is required'})
    .max(255, 'Price ID is too long')
    .refine((value) => value.trim() !== '', 'Price ID is required'),
  successUrl: url,
  cancelUrl: url,
  // The site leaves it out; other callers may send null.
  email: email.nullish().transform((value) => value ?? undefined),
});

export const billingPortalBody = z.object({
  returnUrl: z.string({message: 'Return URL is required'}).min(1, 'Return URL is required').max(2048),
});

export const addUserToRepoBody = z.object({
  username: githubUsername,
  userId: z.string({message: 'userId is required'}).min(1, 'userId is required').max(128),
});

export const leadBody = z.object({email});

/** A key of src/config's `extraRepositories`: the route checks it against the buyer's plan. */
export const resendExtraInvitationBody = z.object({
  key: z
    .string({message: 'key is required: the repository to invite you to again'})
    .trim()
    .min(1, 'key is required: the repository to invite you to again')
    .max(64, 'key is too long'),
});

/** An extra repository's key (src/config `extraRepositories`), or none for the kit: the route checks it against the plan. */
export const downloadLinkBody = z.object({
  repository: z
    .string({message: 'repository must be the key of a repository in your plan'})
    .trim()
    .min(1, 'repository must not be empty')
    .max(64, 'repository is too long')
    .optional(),
});

export const checkoutSessionId = z
  .string({message: 'sessionId is required'})
  .regex(/^cs_(test|live)_[A-Za-z0-9]{1,200}$/, 'sessionId is not a Checkout Session id');

export const checkoutClaim = z
  .string({message: 'claim is required: open the link your browser came back from the payment with'})
  .regex(CHECKOUT_CLAIM_PATTERN, 'claim is not a checkout claim');

/** What the success page sends: the id and the claim its address brought back from Stripe. */
export const checkoutStatusBody = z.object({sessionId: checkoutSessionId, claim: checkoutClaim});

export const userIdQuery = z.string({message: 'userId is required'}).min(1, 'userId is required').max(128);

/**
 * Compile-time: each body schema takes what the contract says the site sends, and yields it. A
 * change to either side that the other does not follow fails `npm run typecheck`.
 */
type Agrees<S extends z.ZodType, T> = [T] extends [z.input<S>] ? ([z.output<S>] extends [T] ? true : false) : false;
const agreements: [
  Agrees<typeof checkoutBody, CreateCheckoutSessionRequest>,
  Agrees<typeof billingPortalBody, BillingPortalRequest>,
  Agrees<typeof addUserToRepoBody, AddUserToRepoRequest>,
  Agrees<typeof leadBody, LeadRequest>,
  Agrees<typeof resendExtraInvitationBody, ResendExtraInvitationRequest>,
  Agrees<typeof downloadLinkBody, DownloadLinkRequest>,
  Agrees<typeof checkoutStatusBody, CheckoutStatusRequest>,
] = [true, true, true, true, true, true, true];
void agreements;
