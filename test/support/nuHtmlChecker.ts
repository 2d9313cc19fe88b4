/**
 * The Nu Html Checker (the W3C's validator, `vnu-jar` from npm) over many files in one JVM: Java
 * starts once for the whole build, which is most of its cost.
 */
import {execFile, spawnSync} from 'node:child_process';

/** One message of vnu's JSON output (`--format json`). */
export interface NuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  /** `file:` URL of the checked document. */
  url?: string;
  message: string;
  /** The markup around the problem. */
  extract?: string;
  lastLine?: number;
  firstColumn?: number;
}

export const JAVA_MISSING = `Java was not found on the PATH. The HTML validity test runs the Nu Html Checker, which needs it; install it with:
  apt-get update && apt-get install -y default-jre-headless`;

const VNU_JAR = require.resolve('vnu-jar/build/dist/vnu.jar');

/** Fails loudly, never skips, when there is no Java to run the checker. */
export function assertJava(): void {
  if (spawnSync('java', ['-version']).error) throw new Error(JAVA_MISSING);
}

/** Every error vnu finds in `files`; warnings and notes are left out. */
export function nuErrors(files: string[]): Promise<NuMessage[]> {
  const args = ['-jar', VNU_JAR, '--errors-only', '--format', 'json', '--stdout', '--exit-zero-always', ...files];
  return new Promise((resolve, reject) => {
    // We call java ourselves: vnu-jar's own launcher downloads a Java runtime when none is installed.
    execFile('java', args, {maxBuffer: 256 * 1024 * 1024}, (error, stdout, stderr) => {
      if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') return reject(new Error(JAVA_MISSING));
      if (error) return reject(new Error(`vnu failed: ${error.message}\n${stderr}`));
      resolve((JSON.parse(stdout) as {messages: NuMessage[]}).messages);
    });
  });
}
