import { dateTime } from "../../../views/format";
import { type Config, publicUrl } from "../../core/config";
import type { PortalRole, Viewer } from "../../core/principal";
import type { Executor } from "../../db/client";
import { queueMessage } from "../messages";
import { mintPasswordLink } from "./password-links";

/** The invitee, as the invitation speaks to them. */
interface Invitee {
  id: string;
  email: string;
  name: string;
  role: PortalRole;
}

const AS_MEMBER: Partial<Record<PortalRole, string>> = { staff: "a staff member", admin: "an administrator" };

/**
 * E-mail an invitee a link to choose their password, in the caller's transaction and in the inviting
 * account's name: good for INVITATION_TTL_HOURS, superseding any invitation sent them before.
 */
export async function sendInvitation(tx: Executor, inviter: Viewer, invitee: Invitee, config: Config, now: Date): Promise<void> {
  const link = await mintPasswordLink(tx, invitee.id, "invitation", config, now);
  const portal = publicUrl(config);
  await queueMessage(
    tx,
    {
      partnerId: inviter.partnerId,
      channel: "email",
      kind: "staff.invitation",
      recipient: invitee.email,
      recipientName: invitee.name,
      about: `user:${invitee.id}`,
      subject: `${inviter.partnerName} invites you to the partner portal`,
      body: [
        `Hello ${invitee.name},`,
        `${inviter.name} of ${inviter.partnerName} has invited you to the partner portal as ${AS_MEMBER[invitee.role] ?? "a user"}.`,
        `Choose your password here:\n${link.url}`,
        `The link works once, until ${dateTime(link.expiresAt)} (Nigerian time). Then sign in at ${portal}/login with ${invitee.email}.`,
        `If the link has expired, ask ${inviter.name} to send the invitation again, or ask for a new link at ${portal}/reset.`,
      ].join("\n\n"),
      dedupeKey: `password-link:${link.id}`,
    },
    now,
  );
}
