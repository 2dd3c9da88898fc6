import { eq, sql } from "drizzle-orm";
import { dateTime } from "../../../views/format";
import type { Config } from "../../core/config";
import { CommandError } from "../../core/errors";
import type { Database } from "../../db/client";
import { recordAudit } from "../audit";
import { queueMessage } from "../messages";
import { partners, portalUsers } from "../partners";
import { mintPasswordLink, type PasswordLink } from "./password-links";
import { normaliseEmail } from "./passwords";

/** The user an e-mail names, whatever its case, with their account's name (the e-mail speaks of it). */
async function userByEmail(db: Database, email: string) {
  const [user] = await db
    .select({
      id: portalUsers.id,
      email: portalUsers.email,
      name: portalUsers.name,
      active: portalUsers.active,
      partnerId: partners.id,
      partnerName: partners.name,
    })
    .from(portalUsers)
    .innerJoin(partners, eq(partners.id, portalUsers.partnerId))
    .where(sql`lower(${portalUsers.email}) = ${normaliseEmail(email)}`);
  return user;
}

const resetMail = (user: { name: string; email: string }, link: PasswordLink) => ({
  subject: "Reset your partner portal password",
  body: [
    `Hello ${user.name},`,
    `Someone, we hope you, asked to reset the password you sign in to the partner portal with as ${user.email}.`,
    `Choose a new password here:\n${link.url}`,
    `The link works once, until ${dateTime(link.expiresAt)} (Nigerian time). If you did not ask, ignore this e-mail: your password stays as it is.`,
  ].join("\n\n"),
});

/**
 * "Forgot your password?": an active user's e-mail gets a reset link (superseding any they were sent
 * before), queued in the transaction that makes it. Any other address gets nothing, and the caller
 * answers the same either way (no account enumeration); the throttles are the caller's.
 */
export async function requestPasswordReset(db: Database, email: string, config: Config, now: Date): Promise<void> {
  const user = await userByEmail(db, email);
  if (!user?.active) return;
  await db.transaction(async (tx) => {
    const link = await mintPasswordLink(tx, user.id, "reset", config, now);
    await queueMessage(
      tx,
      {
        partnerId: user.partnerId,
        channel: "email",
        kind: "staff.password_reset",
        recipient: user.email,
        recipientName: user.name,
        about: `user:${user.id}`,
        ...resetMail(user, link),
        dedupeKey: `password-link:${link.id}`,
      },
      now,
    );
  });
}

/**
 * A reset link for any active user, printed by `npm run cli -- reset-link <email>` rather than
 * e-mailed: the first owner has nobody to invite them. It supersedes the user's other links.
 */
export async function commandLineResetLink(
  db: Database,
  email: string,
  config: Config,
  now: Date,
): Promise<{ email: string; link: string; expiresAt: string }> {
  const user = await userByEmail(db, email);
  if (!user) throw new CommandError(404, `no portal user has the e-mail ${normaliseEmail(email)}`, "email");
  if (!user.active) throw new CommandError(409, `${user.email} is deactivated: reactivate them first`, "email");
  const link = await db.transaction(async (tx) => {
    const made = await mintPasswordLink(tx, user.id, "reset", config, now);
    // Whoever runs the command line holds the database already: it is the actor.
    await recordAudit(tx, { label: "the operator's command line", partnerId: user.partnerId }, { action: "user.reset_link", subject: user.email }, now);
    return made;
  });
  return { email: user.email, link: link.url, expiresAt: link.expiresAt.toISOString() };
}
