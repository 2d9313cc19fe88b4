export {appConfig} from './app';
export {landing, landingExtras} from './landing';
export {dashboardPlan, featuredPlan, findPlanByPriceId} from './plans';
export {repositoryUrl} from './links';
export * from './types';
