export {appConfig} from './app';
export {landing, landingExtras} from './landing';
export {
  checkoutPriceId,
  dashboardPlan,
  extraRepositoriesAdded,
  extraRepositoryKeys,
  featuredPlan,
  FEWEST_TEAM_SEATS,
  findPlanByPriceId,
  findPlanPrice,
  findStoredPlan,
  maxSeatsOf,
  PLAN_CURRENCY,
  planAdds,
  planAmount,
  planFeatureNames,
  planKeys,
  type PlanPrice,
  planPriceIds,
  planPrices,
  repositoryKeys,
  saleOf,
  seatPriceOf,
  type SeatsSale,
  soldInTiers,
  seatsRefusal,
  storedPlanName,
  teamProblems,
  teamTiersOf,
  UPDATES_FEATURE,
} from './plans';
export {isTokenPage, ROUTES, SISTER_APPS, TOKEN_PAGES} from './links';
export {NEXT_PARAM, sitePath, siteUrl} from './returnPath';
export {
  addSeatsLabel,
  askAboutEndedSeat,
  endedMemberWords,
  largerTierLabel,
  memberName,
  memberOfTeam,
  memberStateWords,
  planForSeats,
  planForTeams,
  seatEndedBecause,
  seatRefundAmount,
  seatsKept,
  seatsKeptWords,
  seatEndedWords,
  SEAT_END_REASONS,
  type SeatEndReason,
  type ShownMember,
  TEAM_LINK_DAYS,
  TEAM_LINK_FRAGMENT,
  TEAM_LINK_MS,
  TEAM_REMOVED_REASON,
  TEAM_SEATS_REFUNDED_REASON,
  TEAM_SELLER_REASON,
  TEAM_WORDS,
  teamFaq,
  teamLinkUrl,
} from './teams';
export * from './types';
export * from './api';
export {afterPurchase, codeIncludes} from './afterPurchase';
export {afterPasswordReset, passwordReset} from './passwordReset';
export {type EndedAccess, endedPurchase, type EndedState, hasEnded, standingNotes} from './paymentStanding';
export {releaseLabel, tagBesideName, whatsNewWords} from './releases';
export {formatDay} from './dates';
export {legal} from './legal';
export {
  CREDITED_LATER_REFUSAL,
  addedRepositoriesLine,
  addedSeatsAmount,
  fairPriceCreditName,
  moreSeatsLabel,
  SMALLEST_CHARGE,
  upgradeAmount,
  upgradeAmountFor,
  upgradeCreditFor,
  upgradeCreditName,
  upgradeLabel,
  upgradesFrom,
  type UpgradeRefusal,
  UPGRADE_REFUSALS,
  type UpgradeSeats,
} from './upgrades';
export {emulatorProject, serviceName, storageKey} from './serviceName';
export {immediateDeliveryRequest, immediateDeliveryVersion, termsAcceptanceText} from './checkoutTerms';
export {countryName, fairPercentOff, fairPrice, type FairPrice, fairPriceCouponId} from './fairPrices';
export {
  LAUNCH_CODE_LIMITS,
  LAUNCH_CODE_PATTERN,
  LAUNCH_CODE_STATES,
  LAUNCH_CODE_WORDS,
  LAUNCH_CODE_ENDING,
  launchCodeCouponName,
  launchCodeState,
  launchCodeUsesLine,
  launchCodeTerms,
  type LaunchCodeState,
  UPGRADE_CODE_ID_PATTERN,
  UPGRADE_CODE_WORDS,
  upgradeCodeAmount,
} from './launchCodes';
export {
  AFFILIATE_CODE_PATTERN,
  AFFILIATE_CODE_RULE,
  AFFILIATE_PARAM,
  AFFILIATE_WORDS,
  affiliateProblems,
  affiliateProgramme,
  COMMISSION_STATES,
  commissionHoldDays,
  commissionPayableAt,
  type CommissionState,
  stripeConnectOn,
} from './affiliates';
export {FUNNEL_WORDS} from './funnel';
