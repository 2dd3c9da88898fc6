/** The environment a key runs in, and a policy was issued in (spec 3, 5.5): the sandbox, or production. */
export type Mode = "test" | "live";

/** Who is calling: the partner account behind a verified key, and the environment that key runs in. */
export interface Principal {
  partnerId: string;
  partnerName: string;
  isAdmin: boolean;
  enrichmentEnabled: boolean;
  keyId: string;
  keyLabel: "test" | "live" | "legacy";
  /** Test and live keys pin their environment; a legacy key follows the account toggle (spec 5.5). */
  mode: Mode;
}

/** A portal sign-in's role: a partner's owner or staff, or the operator's administrator. */
export type PortalRole = "owner" | "staff" | "admin";

/** Who is signed in: the user, their partner account, and the session. */
export interface Viewer {
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  role: PortalRole;
  mustChangePassword: boolean;
  partnerId: string;
  partnerName: string;
  /** The account toggle (legacy keys follow it); the portal acts in this mode. */
  mode: Mode;
  enrichmentEnabled: boolean;
}
