export {appConfig} from './app';
export {landing, landingExtras} from './landing';
export {checkoutPriceId, dashboardPlan, featuredPlan, findPlanByPriceId, PLAN_CURRENCY, planAmount} from './plans';
export {githubRepositoryUrl, isTokenPage, ROUTES, SISTER_APPS, TOKEN_PAGES} from './links';
export * from './types';
export * from './api';
export {afterPurchase} from './afterPurchase';
export {serviceName} from './serviceName';
