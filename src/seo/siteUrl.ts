import {appConfig} from '../config';

/** The production origin, from the one domain name in the config. */
export const siteUrl = `https://${appConfig.domainName}`;
