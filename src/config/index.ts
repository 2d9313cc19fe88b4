export {appConfig} from './app';
export type {AppConfigValue} from './app';
export {landing} from './landing';
export type {LandingContent} from './landing';
export {featuredPlan, findPlanByPriceId, planPriceId} from './plans';
export * from './types';
