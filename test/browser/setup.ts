// A browser test loads real pages; the default 5 s is too short on a busy two-core machine, and
// CI's machine runs the three projects side by side: a test that takes 20 s alone took over a
// minute there. A timeout is no assertion; what a test expects it says itself.
jest.setTimeout(180_000);
