export {appConfig} from './app';
export {landing} from './landing';
export {dashboardPlan, featuredPlan, findPlanByPriceId} from './plans';
export {repositoryUrl} from './links';
export * from './types';
