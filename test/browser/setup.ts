// A browser test loads real pages; the default 5 s is too short on a busy two-core machine.
jest.setTimeout(60_000);
