/** `work`'s result, or undefined once `deadline` (epoch ms) has passed: a hung connection must not hold an answer. */
export async function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T | undefined> {
  let timer: Timer | undefined;
  const expiry = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
  });
  // Abandoned work may still fail later: that is no longer anyone's answer.
  work.catch(() => {});
  try {
    return await Promise.race([work, expiry]);
  } finally {
    clearTimeout(timer);
  }
}
