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
  /**
   * How the session signed in, in the provider's words: Firebase's `sign_in_provider` (`password`
   * for a password and for an e-mail link alike, `google.com`, `custom`), Supabase's `amr` method
   * (`password` whenever a password was used, else `otp`, `oauth`…). Null when the token says none.
   */
  signInMethod: string | null;
}

/** The token claim that marks a session opened by the checkout exchange. */
export const CHECKOUT_CLAIM = 'checkout';
