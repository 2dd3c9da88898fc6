import { CommandError } from "../../core/errors";

const MIN_PASSWORD_LENGTH = 12;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** The rules of a password one chooses, whether by changing it or from a link. */
export function checkNewPassword(password: string, field = "newPassword") {
  if (password.length < MIN_PASSWORD_LENGTH) throw new CommandError(400, `the new password must have at least ${MIN_PASSWORD_LENGTH} characters`, field);
  if (password.length > 200) throw new CommandError(400, "the new password must have at most 200 characters", field);
}

export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: "argon2id" });
