/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { cancelPlanOfPolicy, lapsedPlanOfPolicy, reopenLapsedPlan } from "./lapse";
export { planNoOfPolicy } from "./plans";
export { financingInstallments, financingPlans } from "./schema";
