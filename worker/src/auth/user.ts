/** Who is calling, as the verified ID token says. */
export interface AuthUser {
  uid: string;
  email?: string;
  /** Only a verified e-mail may match a guest purchase. Never true for a checkout session. */
  emailVerified: boolean;
  /** When the session signed in (seconds): the owner's own sign-in survives ending the others. */
  authTime: number;
  /** A session the checkout exchange opened (the payer's, not proof of the e-mail). */
  fromCheckout: boolean;
}

/** The token claim that marks a session opened by the checkout exchange. */
export const CHECKOUT_CLAIM = 'checkout';
