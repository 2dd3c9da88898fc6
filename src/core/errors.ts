/**
 * A refusal the client can act on. Every layer throws this; the command endpoint maps it to
 * exctnFdbck { id: 55, id_v4: status, elbrtn: message } and the portal shows the message
 * next to `field`.
 */
export class CommandError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Dotted wire path of the offending field, e.g. `seed.goodsValue`, when there is one. */
    readonly field?: string,
    /** The other fields the same check refused: the JSON surface names the first, a form shows them all. */
    readonly more: readonly { field: string; message: string }[] = [],
  ) {
    super(message);
    this.name = "CommandError";
  }
}

export const badRequest = (message: string, field?: string) => new CommandError(400, message, field);
export const notAcceptable = (message: string, field?: string) => new CommandError(406, message, field);
