/** Health premiums (spec 2.4): the same for every insurer, by duration. */
import { type MonthlyDuration, wholeNairaInKobo } from "../shared";

/** Spec 2.4: 1250 naira per month, 7500 for 6m, 15000 for 1y; the same for every insurer. */
const HEALTH_PREMIUM_NAIRA: Readonly<Record<MonthlyDuration, number>> = { "1m": 1250, "3m": 3750, "6m": 7500, "1y": 15000 };

export const healthPremiumKobo = (duration: MonthlyDuration): number => wholeNairaInKobo(HEALTH_PREMIUM_NAIRA[duration]);
