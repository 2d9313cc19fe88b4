/**
 * Type-checks docs snippets as if each were a file of the repository: a
 * snippet titled with a path (`title="src/pages/pricing.tsx"`) is compiled at
 * that path, so its relative imports resolve like the reader's will; an
 * untitled one sits beside its page. Nothing is written to disk: a compiler
 * host serves the snippets and reads everything else from the repository.
 * Snippets under `worker/` compile with the worker's own tsconfig.
 */
import path from 'node:path';
import ts from 'typescript';
import {ROOT} from './docsFacts';

export interface Snippet {
  /** Where the snippet is compiled, absolute. */
  file: string;
  code: string;
}

export interface SnippetError {
  file: string;
  line: number;
  message: string;
}

function readConfig(configFile: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`Cannot read ${configFile}`);
  return parsed;
}

function compile(snippets: Snippet[], configFile: string, extraRoots: string[]): SnippetError[] {
  const config = readConfig(configFile);
  const virtual = new Map(snippets.map((snippet) => [path.normalize(snippet.file), snippet.code]));
  const host = ts.createCompilerHost(config.options, true);
  const {getSourceFile, fileExists, readFile} = host;
  host.fileExists = (file) => virtual.has(path.normalize(file)) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(path.normalize(file)) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, onError, create) => {
    const code = virtual.get(path.normalize(file));
    return code === undefined
      ? getSourceFile.call(host, file, language, onError, create)
      : ts.createSourceFile(file, code, language, true);
  };
  // The config's own declaration files (the worker's generated bindings) stay in scope.
  const ambient = config.fileNames.filter((file) => file.endsWith('.d.ts'));
  const checked = [...virtual.keys(), ...extraRoots.map((file) => path.normalize(file))];
  const program = ts.createProgram({
    rootNames: [...checked, ...ambient],
    options: {...config.options, noEmit: true},
    host,
  });
  return checked
    .flatMap((file) => {
      const sourceFile = program.getSourceFile(file);
      if (!sourceFile) throw new Error(`The compiler did not load ${file}`);
      return [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)];
    })
    .map((diagnostic) => ({
      file: path.normalize(diagnostic.file!.fileName),
      line: diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1,
      message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
    }));
}

/**
 * Every snippet's type errors. Snippets that claim the same path are
 * compiled in separate rounds so that none hides another.
 * `extraRoots` are real files (the component examples) checked alongside.
 */
export function typecheckSnippets(snippets: Snippet[], extraRoots: string[] = []): SnippetError[] {
  const groups = [
    {
      configFile: path.join(ROOT, 'worker', 'tsconfig.json'),
      group: snippets.filter((s) => isWorkerFile(s.file)),
      roots: [],
    },
    {
      configFile: path.join(ROOT, 'tsconfig.json'),
      group: snippets.filter((s) => !isWorkerFile(s.file)),
      roots: extraRoots,
    },
  ];
  const errors: SnippetError[] = [];
  for (const {configFile, group, roots} of groups) {
    // The first round also carries the real files, so it exists even without snippets.
    const rounds: Snippet[][] = [[]];
    for (const snippet of group) {
      const round = rounds.find((r) => !r.some((other) => other.file === snippet.file));
      if (round) round.push(snippet);
      else rounds.push([snippet]);
    }
    rounds.forEach((round, index) => {
      const roundRoots = index === 0 ? roots : [];
      if (round.length + roundRoots.length > 0) errors.push(...compile(round, configFile, roundRoots));
    });
  }
  return errors;
}

function isWorkerFile(file: string): boolean {
  return path.relative(ROOT, file).split(path.sep)[0] === 'worker';
}
