import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { type Config, publicUrl } from "../../core/config";
import { newId } from "../../core/ids";
import type { Database, Executor } from "../../db/client";
import { recordAudit } from "../audit";
import { portalUsers } from "../partners";
import { checkNewPassword, hashPassword } from "./passwords";
import { type PasswordLinkPurpose, passwordLinks, portalSessions } from "./schema";

/** Only this digest of a link's token is kept: the database alone opens no link. */
const digestOf = (token: string) => createHash("sha256").update(token).digest("hex");

const passwordLinkUrl = (config: Config, token: string) => `${publicUrl(config)}/reset/${token}`;

export interface PasswordLink {
  id: string;
  url: string;
  expiresAt: Date;
}

/** The user's links still open (neither used nor superseded) end, in the caller's transaction: a newer one was made, or the password changed. */
export async function endPasswordLinks(tx: Executor, userId: string, now: Date) {
  await tx
    .update(passwordLinks)
    .set({ supersededAt: now })
    .where(and(eq(passwordLinks.userId, userId), isNull(passwordLinks.usedAt), isNull(passwordLinks.supersededAt)));
}

/** Lock the user's row: making a link and using one take turns, so a user never has two open links. */
const lockUser = (tx: Executor, userId: string) => tx.select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.id, userId)).for("update");

/**
 * A user's new link to choose a password, in the caller's transaction: 32 random bytes, kept as their
 * digest; good for PASSWORD_RESET_TTL_MINUTES (a reset) or INVITATION_TTL_HOURS (an invitation);
 * every link of the user still open is superseded.
 */
export async function mintPasswordLink(tx: Executor, userId: string, purpose: PasswordLinkPurpose, config: Config, now: Date): Promise<PasswordLink> {
  await lockUser(tx, userId);
  await endPasswordLinks(tx, userId, now);
  const token = randomBytes(32).toString("base64url");
  const ttlMs = purpose === "reset" ? config.PASSWORD_RESET_TTL_MINUTES * 60_000 : config.INVITATION_TTL_HOURS * 3_600_000;
  const link = { id: newId(), expiresAt: new Date(now.getTime() + ttlMs) };
  await tx.insert(passwordLinks).values({ ...link, userId, purpose, tokenHash: digestOf(token), createdAt: now });
  return { ...link, url: passwordLinkUrl(config, token) };
}

/** Why a link opens nothing: each has its own page (a deactivated user's link is simply unknown). */
export type ClosedLink = "expired" | "used" | "superseded" | "unknown";

interface OpenLink {
  state: "open";
  linkId: string;
  purpose: PasswordLinkPurpose;
  userId: string;
  partnerId: string;
  email: string;
  name: string;
}

type LinkStanding = OpenLink | { state: ClosedLink };

/** What a link's token opens now. */
export async function passwordLinkStanding(db: Executor, token: string, now: Date): Promise<LinkStanding> {
  const [link] = await db
    .select({
      linkId: passwordLinks.id,
      purpose: passwordLinks.purpose,
      expiresAt: passwordLinks.expiresAt,
      usedAt: passwordLinks.usedAt,
      supersededAt: passwordLinks.supersededAt,
      userId: portalUsers.id,
      partnerId: portalUsers.partnerId,
      email: portalUsers.email,
      name: portalUsers.name,
      active: portalUsers.active,
    })
    .from(passwordLinks)
    .innerJoin(portalUsers, eq(portalUsers.id, passwordLinks.userId))
    .where(eq(passwordLinks.tokenHash, digestOf(token)));
  if (!link?.active) return { state: "unknown" };
  if (link.usedAt) return { state: "used" };
  if (link.supersededAt) return { state: "superseded" };
  if (link.expiresAt <= now) return { state: "expired" };
  const { expiresAt: _e, usedAt: _u, supersededAt: _s, active: _a, ...open } = link;
  return { state: "open", ...open };
}

/**
 * Choose a password with a link (the same rules as changing one): the link is used up, every
 * session of the user ends, the one-time password of an invitation no longer has to be changed,
 * and the audit log says so. The link is looked at again under the user's lock, so of two uses at
 * once only one succeeds.
 */
export async function choosePassword(db: Database, token: string, password: string, now: Date): Promise<LinkStanding> {
  const first = await passwordLinkStanding(db, token, now);
  if (first.state !== "open") return first;
  checkNewPassword(password, "password");
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    await lockUser(tx, first.userId);
    const link = await passwordLinkStanding(tx, token, now);
    if (link.state !== "open") return link;
    await tx.update(portalUsers).set({ passwordHash, mustChangePassword: false }).where(eq(portalUsers.id, link.userId));
    await tx
      .update(portalSessions)
      .set({ endedAt: now })
      .where(and(eq(portalSessions.userId, link.userId), isNull(portalSessions.endedAt)));
    await tx.update(passwordLinks).set({ usedAt: now }).where(eq(passwordLinks.id, link.linkId));
    const actor = { userId: link.userId, email: link.email, partnerId: link.partnerId };
    await recordAudit(tx, actor, { action: link.purpose === "reset" ? "user.password_reset" : "user.invitation_accept", subject: link.email }, now);
    return link;
  });
}
