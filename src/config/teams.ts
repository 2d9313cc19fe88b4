/**
 * The words for a purchase's seats (issue 41), read by the pricing section, the checkout's e-mails
 * and the console: one seat reads as the plan alone, as before teams.
 */

/** A plan bought for `seats`: "Advanced", or "Advanced for a team of 5". */
export function planForSeats(planName: string, seats: number): string {
  return seats > 1 ? `${planName} for a team of ${seats}` : planName;
}
