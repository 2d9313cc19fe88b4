export {appConfig} from './app';
export {landing, landingExtras} from './landing';
export {checkoutPriceId, dashboardPlan, featuredPlan, findPlanByPriceId, findStoredPlan, PLAN_CURRENCY, planAmount, planFeatureNames, planKeys, storedPlanName, UPDATES_FEATURE} from './plans';
export {githubRepositoryUrl, isTokenPage, ROUTES, SISTER_APPS, TOKEN_PAGES} from './links';
export * from './types';
export * from './api';
export {afterPurchase} from './afterPurchase';
export {emulatorProject, serviceName, storageKey} from './serviceName';
export {immediateDeliveryRequest, termsAcceptanceText} from './checkoutTerms';
