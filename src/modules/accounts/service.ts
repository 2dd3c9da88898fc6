import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Config } from "../../core/config";
import { CommandError } from "../../core/errors";
import { newId, normaliseUuid } from "../../core/ids";
import type { PortalRole, Viewer } from "../../core/principal";
import type { Database, Executor } from "../../db/client";
import { recordAudit } from "../audit";
import { CLAIM_AUTHORITIES, CLAIM_AUTHORITY_WORDS, type ClaimAuthority, partners, portalUsers } from "../partners";
import { sendInvitation } from "./invitations";
import { endPasswordLinks } from "./password-links";
import { checkNewPassword, hashPassword, normaliseEmail } from "./passwords";
import { portalSessions, serviceSecrets } from "./schema";

// A real argon2id hash of a random password: a sign-in for an unknown e-mail costs the same as a wrong password.
const DUMMY_HASH = await Bun.password.hash(randomBytes(16).toString("hex"), { algorithm: "argon2id" });

/**
 * A secret of the service's own, made once per database and kept (`service_secrets`), so every
 * instance shares it: the first to ask makes it, the others read the one kept. Written on the
 * database itself, never in a caller's transaction, so a secret handed out is always kept.
 */
export async function keptSecret(db: Database, name: string): Promise<string> {
  await db
    .insert(serviceSecrets)
    .values({ name, value: randomBytes(48).toString("base64url"), createdAt: new Date() })
    .onConflictDoNothing();
  const [row] = await db.select({ value: serviceSecrets.value }).from(serviceSecrets).where(eq(serviceSecrets.name, name));
  return row!.value;
}

/** The session signing key: SESSION_SECRET, or one made once per database (so every instance shares it). */
export async function sessionSecret(db: Database, config: Config): Promise<string> {
  return config.SESSION_SECRET ?? keptSecret(db, "session");
}

const SIGN_IN_REFUSED = "the e-mail or password is not right";

/** Check an e-mail and password and open a session. Refusals do not say which of the two was wrong. */
export async function signIn(
  db: Database,
  input: { email: string; password: string; userAgent?: string | null },
  config: Config,
  now: Date,
): Promise<{ sessionId: string; expiresAt: Date }> {
  const [user] = await db
    .select({ id: portalUsers.id, passwordHash: portalUsers.passwordHash, active: portalUsers.active, suspended: partners.suspended })
    .from(portalUsers)
    .innerJoin(partners, eq(partners.id, portalUsers.partnerId))
    .where(sql`lower(${portalUsers.email}) = ${normaliseEmail(input.email)}`);
  const genuine = await Bun.password.verify(input.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !genuine) throw new CommandError(401, SIGN_IN_REFUSED, "password");
  if (!user.active) throw new CommandError(403, "this user has been deactivated: ask your account owner");
  if (user.suspended) throw new CommandError(403, "this partner account is suspended: contact the operator");
  const sessionId = newId();
  const expiresAt = new Date(now.getTime() + config.SESSION_TTL_HOURS * 3_600_000);
  await db.transaction(async (tx) => {
    await tx.insert(portalSessions).values({ id: sessionId, userId: user.id, createdAt: now, expiresAt, userAgent: input.userAgent?.slice(0, 300) ?? null });
    await tx.update(portalUsers).set({ lastSignInAt: now }).where(eq(portalUsers.id, user.id));
  });
  return { sessionId, expiresAt };
}

/** The viewer of a live session, or null when it ended, expired, or its user or account was closed. */
export async function sessionViewer(db: Database, sessionId: string, now: Date): Promise<Viewer | null> {
  const [row] = await db
    .select({
      sessionId: portalSessions.id,
      userId: portalUsers.id,
      email: portalUsers.email,
      name: portalUsers.name,
      role: portalUsers.role,
      mustChangePassword: portalUsers.mustChangePassword,
      active: portalUsers.active,
      partnerId: partners.id,
      partnerName: partners.name,
      mode: partners.mode,
      enrichmentEnabled: partners.enrichmentEnabled,
      suspended: partners.suspended,
    })
    .from(portalSessions)
    .innerJoin(portalUsers, eq(portalUsers.id, portalSessions.userId))
    .innerJoin(partners, eq(partners.id, portalUsers.partnerId))
    .where(and(eq(portalSessions.id, sessionId), isNull(portalSessions.endedAt), gt(portalSessions.expiresAt, now)));
  if (!row?.active || row.suspended) return null;
  const { active: _active, suspended: _suspended, ...viewer } = row;
  return viewer;
}

export async function endSession(db: Executor, sessionId: string, now: Date): Promise<void> {
  await db
    .update(portalSessions)
    .set({ endedAt: now })
    .where(and(eq(portalSessions.id, sessionId), isNull(portalSessions.endedAt)));
}

/** Change one's own password; every other session of the user ends, and so does any link they were sent to choose one. */
export async function changePassword(db: Database, viewer: Viewer, input: { currentPassword: string; newPassword: string }, now: Date): Promise<void> {
  const [user] = await db.select({ passwordHash: portalUsers.passwordHash }).from(portalUsers).where(eq(portalUsers.id, viewer.userId));
  if (!user || !(await Bun.password.verify(input.currentPassword, user.passwordHash)))
    throw new CommandError(400, "the current password is not right", "currentPassword");
  checkNewPassword(input.newPassword);
  if (input.newPassword === input.currentPassword) throw new CommandError(400, "the new password must differ from the current one", "newPassword");
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(portalUsers).set({ passwordHash, mustChangePassword: false }).where(eq(portalUsers.id, viewer.userId));
    await tx
      .update(portalSessions)
      .set({ endedAt: now })
      .where(and(eq(portalSessions.userId, viewer.userId), ne(portalSessions.id, viewer.sessionId), isNull(portalSessions.endedAt)));
    await endPasswordLinks(tx, viewer.userId, now);
    await recordAudit(tx, viewer, { action: "user.password_change", subject: viewer.email }, now);
  });
}

export interface PortalUser {
  id: string;
  email: string;
  name: string;
  role: PortalRole;
  /** The operator's administrators: their authority over claims. */
  claimAuthority: ClaimAuthority | null;
  active: boolean;
  mustChangePassword: boolean;
  lastSignInAt: Date | null;
  createdAt: Date;
}

export async function listUsers(db: Database, partnerId: string): Promise<PortalUser[]> {
  return db
    .select({
      id: portalUsers.id,
      email: portalUsers.email,
      name: portalUsers.name,
      role: portalUsers.role,
      claimAuthority: portalUsers.claimAuthority,
      active: portalUsers.active,
      mustChangePassword: portalUsers.mustChangePassword,
      lastSignInAt: portalUsers.lastSignInAt,
      createdAt: portalUsers.createdAt,
    })
    .from(portalUsers)
    .where(eq(portalUsers.partnerId, partnerId))
    .orderBy(portalUsers.createdAt);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Whom each role looks after: an account's owner invites and switches off its staff; an
 * administrator does the same for the other administrators of the operator's account (four eyes
 * needs a second one). Nobody else manages anyone.
 */
const TEAM_ROLE: Partial<Record<PortalRole, PortalRole>> = { owner: "staff", admin: "admin" };
const MEMBER_WORD: Partial<Record<PortalRole, string>> = { staff: "staff member", admin: "administrator" };

function teamRoleOf(actor: Viewer): PortalRole {
  const role = TEAM_ROLE[actor.role];
  if (!role) throw new CommandError(403, "only an account's owner or an administrator manages its users");
  return role;
}

/**
 * The owner invites a staff member, or an administrator another administrator, to their own account:
 * they are e-mailed a link to choose their password (invitations.ts); the one-time password shown
 * once to the inviter is the way in where no e-mail arrives (then they must change it).
 */
export async function inviteStaff(
  db: Database,
  inviter: Viewer,
  input: { email: string; name: string },
  config: Config,
  now: Date,
): Promise<{ user: PortalUser; oneTimePassword: string }> {
  const role = teamRoleOf(inviter);
  const email = normaliseEmail(input.email);
  const name = input.name.trim();
  if (!EMAIL.test(email) || email.length > 200) throw new CommandError(400, "email must be an e-mail address, e.g. ada@partner.ng", "email");
  if (!name || name.length > 100) throw new CommandError(400, "name is required (at most 100 characters)", "name");
  const oneTimePassword = randomBytes(12).toString("base64url");
  const passwordHash = await hashPassword(oneTimePassword);
  const id = newId();
  try {
    await db.transaction(async (tx) => {
      await tx.insert(portalUsers).values({
        id,
        partnerId: inviter.partnerId,
        email,
        name,
        passwordHash,
        role,
        // An invited administrator decides claims as an assessor until the head of claims says otherwise.
        ...(role === "admin" ? { claimAuthority: "assessor" as const } : {}),
        mustChangePassword: true,
        createdAt: now,
      });
      await sendInvitation(tx, inviter, { id, email, name, role }, config, now);
      await recordAudit(tx, inviter, { action: role === "admin" ? "admin.invite" : "user.invite", subject: email }, now);
    });
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code === "23505" || (error as { code?: string }).code === "23505")
      throw new CommandError(409, `a portal user with e-mail ${email} already exists`, "email");
    throw error;
  }
  const [user] = (await listUsers(db, inviter.partnerId)).filter((u) => u.id === id);
  return { user: user!, oneTimePassword };
}

/**
 * Send an invitation again (a new link, the old one superseded) to someone of the actor's team who
 * has not chosen their own password yet; someone who has uses "Forgot your password?".
 */
export async function resendInvitation(db: Database, actor: Viewer, rawUserId: string, config: Config, now: Date): Promise<{ email: string }> {
  const role = teamRoleOf(actor);
  const noSuch = new CommandError(404, `no such ${MEMBER_WORD[role]} on this account`);
  const userId = normaliseUuid(rawUserId);
  if (!userId) throw noSuch;
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({
        id: portalUsers.id,
        email: portalUsers.email,
        name: portalUsers.name,
        active: portalUsers.active,
        mustChangePassword: portalUsers.mustChangePassword,
      })
      .from(portalUsers)
      .where(and(eq(portalUsers.id, userId), eq(portalUsers.partnerId, actor.partnerId), eq(portalUsers.role, role)))
      .for("update");
    if (!user) throw noSuch;
    if (!user.active) throw new CommandError(409, `${user.email} is deactivated: reactivate them before inviting them again`);
    if (!user.mustChangePassword)
      throw new CommandError(409, `${user.email} has already chosen their password: if they forgot it, they use "Forgot your password?" when signing in`);
    await sendInvitation(tx, actor, { ...user, role }, config, now);
    await recordAudit(tx, actor, { action: role === "admin" ? "admin.invitation_resend" : "user.invitation_resend", subject: user.email }, now);
    return { email: user.email };
  });
}

/**
 * The owner deactivates (ending their sessions and password links) or reactivates a staff member of the same account; an
 * administrator another administrator of the operator's account. An administrator never switches
 * themselves off, nor the account's last active administrator (the active ones are locked first, so
 * two deactivating each other at once cannot both succeed).
 */
export async function setStaffActive(db: Database, actor: Viewer, rawUserId: string, active: boolean, now: Date): Promise<{ email: string }> {
  const role = teamRoleOf(actor);
  const noSuch = new CommandError(404, `no such ${MEMBER_WORD[role]} on this account`);
  const userId = normaliseUuid(rawUserId);
  if (!userId) throw noSuch;
  // Only an administrator manages their own role: an owner's own sign-in is simply not among their staff.
  if (role === actor.role && userId === actor.userId) throw new CommandError(409, "you cannot deactivate or reactivate yourself: ask another administrator");
  return db.transaction(async (tx) => {
    const ofTeam = and(eq(portalUsers.partnerId, actor.partnerId), eq(portalUsers.role, role));
    if (!active && role === "admin") {
      const stillActive = await tx
        .select({ id: portalUsers.id })
        .from(portalUsers)
        .where(and(ofTeam, eq(portalUsers.active, true)))
        .orderBy(portalUsers.id)
        .for("update");
      if (stillActive.some((u) => u.id === userId) && stillActive.length === 1)
        throw new CommandError(409, "this is the last active administrator: invite another before deactivating this one");
    }
    const [user] = await tx
      .update(portalUsers)
      .set({ active })
      .where(and(eq(portalUsers.id, userId), ofTeam))
      .returning({ email: portalUsers.email });
    if (!user) throw noSuch;
    if (!active) {
      await tx
        .update(portalSessions)
        .set({ endedAt: now })
        .where(and(eq(portalSessions.userId, userId), isNull(portalSessions.endedAt)));
      // Reactivated later, they ask for a new link: one sent before stays dead.
      await endPasswordLinks(tx, userId, now);
    }
    const action: string = role === "admin" ? (active ? "admin.reactivate" : "admin.deactivate") : active ? "user.reactivate" : "user.deactivate";
    await recordAudit(tx, actor, { action, subject: user.email }, now);
    return user;
  });
}

/**
 * The head of claims sets another administrator's authority over claims (docs/claims.md,
 * "Authority"): assessor, claims manager or head of claims. Never the last head: the operator's
 * active administrators are locked first, so two heads lowering each other at once cannot both succeed.
 */
export async function setClaimAuthority(db: Database, actor: Viewer, rawUserId: string, authority: string, now: Date): Promise<{ email: string }> {
  if (actor.role !== "admin") throw new CommandError(403, "only the operator's administrators have an authority over claims");
  if (!(CLAIM_AUTHORITIES as readonly string[]).includes(authority))
    throw new CommandError(400, `claimAuthority must be one of ${CLAIM_AUTHORITIES.join(", ")}`, "claimAuthority");
  const userId = normaliseUuid(rawUserId);
  const noSuch = new CommandError(404, "no such administrator on this account");
  if (!userId) throw noSuch;
  return db.transaction(async (tx) => {
    const team = await tx
      .select({ id: portalUsers.id, email: portalUsers.email, active: portalUsers.active, claimAuthority: portalUsers.claimAuthority })
      .from(portalUsers)
      .where(and(eq(portalUsers.partnerId, actor.partnerId), eq(portalUsers.role, "admin")))
      .orderBy(portalUsers.id)
      .for("update");
    if (team.find((u) => u.id === actor.userId)?.claimAuthority !== "head")
      throw new CommandError(403, "only the head of claims sets an administrator's authority over claims");
    const user = team.find((u) => u.id === userId);
    if (!user) throw noSuch;
    const heads = team.filter((u) => u.active && u.claimAuthority === "head");
    if (authority !== "head" && heads.length === 1 && heads[0]!.id === userId)
      throw new CommandError(409, "this is the last head of claims: make another administrator head of claims first");
    await tx
      .update(portalUsers)
      .set({ claimAuthority: authority as ClaimAuthority })
      .where(eq(portalUsers.id, userId));
    await recordAudit(
      tx,
      actor,
      { action: "admin.claim_authority", subject: user.email, details: { authority: CLAIM_AUTHORITY_WORDS[authority as ClaimAuthority] } },
      now,
    );
    return { email: user.email };
  });
}
