export {appConfig} from './app';
export {landing, landingExtras} from './landing';
export {checkoutPriceId, dashboardPlan, featuredPlan, findPlanByPriceId} from './plans';
export {githubRepositoryUrl, ROUTES, SISTER_APPS} from './links';
export * from './types';
export * from './api';
