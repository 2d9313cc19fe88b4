import {appConfig} from './app';

/** The private repository buyers are invited to, on GitHub. */
export const repositoryUrl = `https://github.com/${appConfig.repository.github}`;
