/** The tests use the same emulator start-up as `npm start`, on free ports. */
export {EMULATOR_PROJECT, oobCodes, signInLink, startAuthEmulator, stopAuthEmulator} from '../../scripts/local/authEmulator';
