/**
 * A registration plate as one vehicle: the spaces and hyphens people write between its parts do
 * not matter, nor does case ("lnd-123 ab" is LND123AB). Vehicle checks compare plates this way,
 * and the portal's forms send a typed plate in this form (spec 2.5: letters and digits, no hyphens).
 */
export const normalisePlate = (typed: string) =>
  typed
    .trim()
    .replace(/[\s-]+/g, "")
    .toUpperCase();
