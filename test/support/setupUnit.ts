import '@testing-library/jest-dom';
import {configure} from '@testing-library/react';

// A `findBy…` or `waitFor` waits for what the user would see, and a loaded machine (the whole
// unit project in one worker, or beside a build) can take more than the library's 1 s default to
// draw it. Waiting longer costs a passing test nothing.
configure({asyncUtilTimeout: 5000});
