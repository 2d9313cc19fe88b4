import {stopRunAuthEmulator} from '../support/runAuthEmulator';

export default function globalTeardown() {
  stopRunAuthEmulator();
}
