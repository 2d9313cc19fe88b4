export {appConfig} from './app';
export {landing} from './landing';
export {featuredPlan, findPlanByPriceId} from './plans';
export * from './types';
