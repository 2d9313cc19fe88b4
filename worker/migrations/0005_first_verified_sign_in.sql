-- The owner's first verified sign-in, as this worker sees it. Until an account's e-mail is proven,
-- anyone may have made it: someone who registered the address with a password before its owner
-- ever signed in, or a guest checkout's payer. The first call with a verified e-mail removes such a
-- password and ends the sessions that could hold it (auth/firstVerifiedSignIn.ts).
CREATE TABLE verified_accounts (
  user_id TEXT PRIMARY KEY,            -- the sign-in provider's uid
  state TEXT NOT NULL CHECK (state IN ('checking', 'done')), -- one request checks; the others wait
  checked_at INTEGER NOT NULL,         -- Unix milliseconds
  sessions_since INTEGER               -- Unix seconds: sessions signed in up to then are refused; null: none
);
