/** Who is calling, as the verified ID token says. */
export interface AuthUser {
  uid: string;
  email?: string;
  /** Only a verified e-mail may match a guest purchase. */
  emailVerified: boolean;
}
