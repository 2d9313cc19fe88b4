-- An index on the invitation each grant holds. Before every take-back touches GitHub, and before
-- each of the audit's fixes, the worker asks which live grant of the repository holds an account
-- or an invitation (access/holders.ts `holderOf`: `github_user_id = ? OR invitation_id = ?`). With
-- an index on the account only, SQLite read every live grant to answer it, and D1 counts each row
-- read; with both, it looks each up (a MULTI-INDEX OR in its query plan).
-- Going back needs nothing: the worker before this migration does not know of the index.
CREATE INDEX grants_invitation_id ON grants (invitation_id);
